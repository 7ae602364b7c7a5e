import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { supersedeChanges } from '../changes/supersede.ts';
import type { RecordChange } from '../changes/write.ts';
import { pinViewers } from '../visibility/pin-access.ts';
import { getPin } from './pins.service.ts';

// A pin its owner made public with an image address the server refuses to fetch (a private
// network's, a port or scheme it does not fetch: refused up front, or at a redirect or a lookup)
// would be a grey "Image unavailable" card on everybody's home page, for good: it stays with its
// viewers (private, `waits_for_picture`) until it has a picture, then becomes public by itself
// (docs/who-sees-what.md). Both moves are told as a switch of who sees it is.

/** Where a pin's visibility moves when its owner's wish and its picture are known. */
export function visibilityFor(wantsPublic: boolean, pictureless: boolean): { visibility: 'public' | 'private'; waits_for_picture: boolean } {
  if (!wantsPublic) return { visibility: 'private', waits_for_picture: false };
  return pictureless ? { visibility: 'private', waits_for_picture: true } : { visibility: 'public', waits_for_picture: false };
}

/**
 * Whether a pin is without a picture once it takes a new address: not with a stored upload; yes
 * with a refused address; and with one to import, as it was until the import has its picture (a
 * waiting pin waits on, any other is shown while its picture is on its way, as a new pin is).
 */
export function pictureAfter(columns: { image_sha256: string | null; refused_image_url: string | null }, waiting: boolean): boolean {
  if (columns.image_sha256 !== null) return false;
  return columns.refused_image_url !== null || waiting;
}

/** Tells a pin's move between public and private (same transaction): gone for everyone but its viewers, or new for everyone. */
export async function announceSwitch(db: Kysely<DB>, record: RecordChange, pinId: number, to: 'public' | 'private'): Promise<void> {
  const pin = await getPin(db, pinId);
  if (to === 'public') {
    record('pin:created', { pin }, 'feed');
    return;
  }
  // Its earlier public rows, and its comments', leave the log: as far as others know it is gone.
  await supersedeChanges(db, { pinDeleted: pinId });
  const viewers = await pinViewers(db, pinId);
  record('pin:deleted', { pinId }, { allBut: viewers });
  record('pin:created', { pin }, { userIds: viewers });
}

/** A public pin whose address was refused: kept with its viewers until it has a picture. Answers whether it moved. */
export async function holdUntilPictured(db: Kysely<DB>, record: RecordChange, pinId: number): Promise<boolean> {
  const held = await db.updateTable('pins').set(visibilityFor(true, true)).where('id', '=', pinId).where('visibility', '=', 'public').returning('id').executeTakeFirst();
  if (held) await announceSwitch(db, record, pinId, 'private');
  return held !== undefined;
}

/** A waiting pin has its picture: public, as its owner chose. Answers whether it moved. */
export async function publishPictured(db: Kysely<DB>, record: RecordChange, pinId: number): Promise<boolean> {
  const shown = await db.updateTable('pins').set(visibilityFor(true, false)).where('id', '=', pinId).where('waits_for_picture', '=', true).returning('id').executeTakeFirst();
  if (shown) await announceSwitch(db, record, pinId, 'public');
  return shown !== undefined;
}
