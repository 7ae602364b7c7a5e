import { z } from 'zod';
import { COLOR_NAMES } from './colors.ts';

// docs/images.md: images are stored by the product and served sized. Plain constants first, so the
// client can import them without the schemas.

/** The widths of the WebP thumbnails made for every stored image. */
export const THUMBNAIL_WIDTHS = [236, 736] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/**
 * A stored image's derived data: its size (so a card reserves its box before anything loads), a
 * thumbhash placeholder (base64, ~28 characters) and its thumbnails by width. A thumbnail is never
 * wider than the original: a small image's "736" file may be its own width.
 */
export const PinImage = z
  .object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    placeholder: z.string(),
    thumbnails: z.object({ '236': z.string(), '736': z.string() }),
    /** Its named colours (contract/colors.ts), largest first; empty until the picture is seen. */
    colors: z.array(z.enum(COLOR_NAMES)),
    /** ≤ 5 colours, `#rrggbb`, with their share of the picture (0–1), largest first. */
    palette: z.array(z.object({ hex: z.string(), share: z.number() })),
    /** The text in the picture, when it was recognised with confidence; null otherwise. */
    text: z.string().nullable(),
  })
  .meta({ id: 'PinImage' });
export type PinImage = z.infer<typeof PinImage>;

/** A stored image as POST /api/images/ answers it: `url` is the original, for a pin's `imageUrl`. */
export const StoredImage = PinImage.extend({ url: z.string() }).meta({ id: 'StoredImage' });
export type StoredImage = z.infer<typeof StoredImage>;

// The upload's limits live with the other limits (zod-free, for the client).
export { IMAGE_LIMITS } from './limits.ts';
