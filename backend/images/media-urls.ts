import type { AliasableExpression, ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import type { PinImage, ThumbnailWidth } from '../../contract/images.ts';
import type { DB, ImageFormat } from '../../db/schema.ts';

/** Where stored images are served (backend/images/media-route.ts); same-site, see contract/urls.ts. */
export const MEDIA_PATH = '/media';

export const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', avif: 'avif' };

/**
 * A stored file's key, also its path under /media/: fanned out by the hash's first two characters so
 * no folder (or bucket prefix listing) holds millions of entries.
 */
export function mediaKey(sha256: string, variant: { original: ImageFormat } | { width: ThumbnailWidth }): string {
  const name = 'original' in variant ? `${sha256}.${EXTENSIONS[variant.original]}` : `${sha256}-${variant.width}.webp`;
  return `${sha256.slice(0, 2)}/${name}`;
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
}

export function toPinImage(image: ImageFields): PinImage {
  const thumbnail = (width: ThumbnailWidth) => mediaUrl(mediaKey(image.sha256, { width }));
  return {
    width: image.width,
    height: image.height,
    placeholder: image.placeholder,
    thumbnails: { '236': thumbnail(236), '736': thumbnail(736) },
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
    .select(sql<ImageFields | null>`json_build_object('sha256', images.sha256, 'format', images.format, 'width', images.width, 'height', images.height, 'placeholder', images.placeholder)`.as('image'))
    .where(sql.ref('images.sha256'), '=', sql.ref<string>('pins.image_sha256'))
    .$asScalar();
}
