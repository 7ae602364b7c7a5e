import type { Kysely } from 'kysely';
import type { Pin } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import { selectPins, toPin } from './pins.service.ts';

/**
 * The pins with these ids, in this order, as every list carries them (owner, counts, image, tags):
 * one primary-key lookup per id. A pin deleted since the ids were read is left out.
 */
export async function pinsInOrder(db: Kysely<DB>, ids: readonly number[]): Promise<Pin[]> {
  if (ids.length === 0) return [];
  const rows = await selectPins(db)
    .where('pins.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toPin(row)] : [];
  });
}
