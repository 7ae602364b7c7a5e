import type { AliasableExpression, ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { PinImage, ThumbnailWidth } from '../../contract/images.ts';
import { isColorName } from '../../contract/colors.ts';
import type { DB, ImageFormat, ImagePaletteEntry } from '../../db/schema.ts';

/** Where stored images are served (backend/images/media-route.ts); same-site, see contract/urls.ts. */
export const MEDIA_PATH = '/media';

export const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', avif: 'avif' };

export const CONTENT_TYPES: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', avif: 'image/avif' };

/**
 * A stored file's key, also its path under /media/: fanned out by the hash's first two characters so
 * no folder (or bucket prefix listing) holds millions of entries.
 */
export function mediaKey(sha256: string, variant: { original: ImageFormat } | { width: ThumbnailWidth }): string {
  const name = 'original' in variant ? `${sha256}.${EXTENSIONS[variant.original]}` : `${sha256}-${variant.width}.webp`;
  return `${sha256.slice(0, 2)}/${name}`;
}

// Exactly the keys mediaKey makes: the fan-out folder is the hash's first two characters, then the
// hash and an extension of ours. Nothing else (no dot segments, no other names) is a key.
const KEY = /^([0-9a-f]{2})\/(\1[0-9a-f]{62})(?:\.(jpg|png|webp|gif|avif)|-(236|736)\.webp)$/;
const FORMAT_OF_EXTENSION = Object.fromEntries(Object.entries(EXTENSIONS).map(([format, ext]) => [ext, format])) as Record<string, ImageFormat>;

export interface ParsedMediaKey {
  sha256: string;
  variant: { original: ImageFormat } | { width: ThumbnailWidth };
  contentType: string;
}

/** A key as mediaKey makes it, taken apart; undefined for any other string (checked strictly). */
export function parseMediaKey(key: string): ParsedMediaKey | undefined {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const [, , sha256 = '', extension, width] = match;
  if (extension !== undefined) {
    const format = FORMAT_OF_EXTENSION[extension] as ImageFormat;
    return { sha256, variant: { original: format }, contentType: CONTENT_TYPES[format] };
  }
  return { sha256, variant: { width: Number(width) as ThumbnailWidth }, contentType: CONTENT_TYPES.webp };
}

export function mediaUrl(key: string): string {
  return `${MEDIA_PATH}/${key}`;
}

export interface ImageFields {
  sha256: string;
  format: ImageFormat;
  width: number;
  height: number;
  placeholder: string;
  /** What is seen in it (docs/images.md); absent for a picture just stored, not yet seen. */
  colors?: string[];
  palette?: ImagePaletteEntry[];
  text?: string | null;
}

export function toPinImage(image: ImageFields): PinImage {
  const thumbnail = (width: ThumbnailWidth) => mediaUrl(mediaKey(image.sha256, { width }));
  return {
    width: image.width,
    height: image.height,
    placeholder: image.placeholder,
    thumbnails: { '236': thumbnail(236), '736': thumbnail(736) },
    colors: (image.colors ?? []).filter(isColorName),
    palette: image.palette ?? [],
    text: image.text ?? null,
  };
}

/**
 * A pin's image as one JSON value, looked up by primary key per row: a scalar subquery rather than a
 * join, for the reason pins.service.ts gives for the owner's name (a join lets the planner hash the
 * whole table for a page of ids).
 */
export function imageOf<TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): AliasableExpression<ImageFields | null> {
  return eb
    .selectFrom('images')
    .select(
      sql<ImageFields | null>`json_build_object('sha256', images.sha256, 'format', images.format, 'width', images.width, 'height', images.height, 'placeholder', images.placeholder, 'colors', images.colors, 'palette', images.palette, 'text', images.text)`.as(
        'image',
      ),
    )
    .where(sql.ref('images.sha256'), '=', sql.ref<string>('pins.image_sha256'))
    .$asScalar();
}
