import { z } from 'zod';
import { StoredImage } from './images.ts';
import { Pin } from './pins.ts';

// Near-duplicate pictures among a user's own pins (docs/duplicates.md): the same picture
// re-encoded, resized or mirrored.

/** One of the caller's pins whose picture is the same or nearly the same, and the boards it is in. */
export const DuplicatePin = z
  .object({
    pin: Pin,
    boards: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .meta({ id: 'DuplicatePin' });
export type DuplicatePin = z.infer<typeof DuplicatePin>;

/**
 * POST /api/images/: the stored picture, and the caller's pins with the same or nearly the same
 * picture (≤ 10, newest first; empty for a picture they never saved), so a client can warn before
 * saving it again.
 */
export const ImageUploaded = z.object({ image: StoredImage, duplicates: z.array(DuplicatePin) }).meta({ id: 'ImageUploaded' });
export type ImageUploaded = z.infer<typeof ImageUploaded>;
