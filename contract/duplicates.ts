import { z } from 'zod';
import { idField, imageUrl } from './fields.ts';
import { StoredImage } from './images.ts';
import { NextCursor, PageQuery } from './paging.ts';
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

/**
 * GET /api/images/duplicates?url=: the picture a pin is about to be made from by its address (the
 * pin builder's remote picture, a shared picture already uploaded), checked for the caller's
 * look-alikes without storing it (docs/duplicates.md).
 */
export const PictureCheckQuery = z.object({ url: imageUrl });
export type PictureCheckQuery = z.input<typeof PictureCheckQuery>;

/**
 * The caller's pins of that picture (as POST /api/images/ answers them). `checked` is false when the
 * picture could not be read (unreachable, not an image): then nothing is known, and the import
 * that follows the save decides.
 */
export const PictureChecked = z.object({ duplicates: z.array(DuplicatePin), checked: z.boolean() }).meta({ id: 'PictureChecked' });
export type PictureChecked = z.infer<typeof PictureChecked>;

/** GET /api/pins/{id}/duplicates: the caller's own pins that look like that pin (≤ 10, newest first, never the pin itself). */
export const DuplicatePins = z.object({ pins: z.array(Pin) }).meta({ id: 'DuplicatePins' });
export type DuplicatePins = z.infer<typeof DuplicatePins>;

/** GET /api/duplicates: `cursor` is the previous page's `nextCursor`. */
export const DuplicatesQuery = PageQuery.pick({ cursor: true });
export type DuplicatesQuery = z.input<typeof DuplicatesQuery>;

/** One group: two or more of the caller's pins with the same or nearly the same picture, newest first. */
export const DuplicateGroup = z.object({ pins: z.array(Pin).min(2) }).meta({ id: 'DuplicateGroup' });
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;

/**
 * A page of groups. A page walks a stretch of the caller's pins, so it may hold few groups (even
 * none) and still have a `nextCursor`: the walk goes on until it is null.
 */
export const DuplicateGroups = z.object({ groups: z.array(DuplicateGroup), nextCursor: NextCursor }).meta({ id: 'DuplicateGroups' });
export type DuplicateGroups = z.infer<typeof DuplicateGroups>;

/** At most this many pins are merged into one at a time (a group's look-alikes are ≤ 10). */
export const MERGE_MAX = 10;

/** POST /api/duplicates/merge: `keep` takes the boards, favorites and comments of the pins in `merge`, which are deleted. */
export const MergeBody = z
  .object({
    keep: idField('keep'),
    merge: z
      .array(idField('merge'), { error: 'merge must be a list of pin ids.' })
      .min(1, { error: 'merge must name at least one pin.' })
      .max(MERGE_MAX, { error: `merge may name at most ${MERGE_MAX} pins.` }),
  })
  .superRefine((body, ctx) => {
    if (new Set(body.merge).size !== body.merge.length) ctx.addIssue({ code: 'custom', path: ['merge'], message: 'merge names a pin twice.' });
    if (body.merge.includes(body.keep)) ctx.addIssue({ code: 'custom', path: ['merge'], message: 'The pin kept cannot also be merged.' });
  })
  .meta({ id: 'MergeBody' });
export type MergeBody = z.infer<typeof MergeBody>;

/** A merge done: the pin kept as it is now, the ids deleted, and the merge to undo until `undoUntil`. */
export const Merged = z.object({ kept: Pin, merged: z.array(z.number().int()), mergeId: z.number().int(), undoUntil: z.string() }).meta({ id: 'Merged' });
export type Merged = z.infer<typeof Merged>;

/** POST /api/duplicates/merge/undo: which merge (its `mergeId`) to undo. */
export const MergeUndoBody = z.object({ mergeId: idField('mergeId') }).meta({ id: 'MergeUndoBody' });
export type MergeUndoBody = z.infer<typeof MergeUndoBody>;

/** POST /api/duplicates/merge/undo: the pins restored, and the pin kept as it is again. */
export const MergeUndone = z.object({ restored: z.array(Pin), kept: Pin }).meta({ id: 'MergeUndone' });
export type MergeUndone = z.infer<typeof MergeUndone>;
