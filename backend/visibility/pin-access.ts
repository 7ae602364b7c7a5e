import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Audience } from '../bus/bus-events.ts';

// Who sees a pin (docs/who-sees-what.md): a public pin, everyone; a private pin, its owner and the
// members (owner and collaborators) of the boards that hold it — for everyone else it does not
// exist (404, absent from every list, count and event). The conditions below are written against
// a query's `pins` table, so every read path says it the same way.

/** Only public pins: the discovery surfaces (home, search, tags, related), the same for everyone. */
export const isPublic: RawBuilder<boolean> = sql<boolean>`pins.visibility = 'public'`;

/** The pins `readerId` may see (undefined: an anonymous visitor, who sees public pins only). */
export function visibleTo(readerId: number | undefined): RawBuilder<boolean> {
  if (readerId === undefined) return isPublic;
  return sql<boolean>`(pins.visibility = 'public' or pins.user_id = ${readerId} or exists (
    select 1 from board_pins bp join boards b on b.id = bp.board_id
    where bp.pin_id = pins.id
      and (b.user_id = ${readerId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${readerId}))
  ))`;
}

/** Whether `readerId` may see the pin; false for a pin that does not exist. */
export async function canSeePin(db: Kysely<DB>, readerId: number | undefined, pinId: number): Promise<boolean> {
  const row = await db.selectFrom('pins').select('pins.id').where('pins.id', '=', pinId).where(visibleTo(readerId)).executeTakeFirst();
  return row !== undefined;
}

/**
 * These pin ids less the private pins `readerId` may not see (for a socket's watch list). An id of
 * no pin stays: its room hears nothing, as before the pin exists, and it tells nothing apart.
 */
export async function watchablePinIds(db: Kysely<DB>, readerId: number | undefined, pinIds: readonly number[]): Promise<number[]> {
  if (!pinIds.length) return [];
  const hidden = await db
    .selectFrom('pins')
    .select('pins.id')
    .where('pins.id', 'in', [...pinIds])
    .where(sql<boolean>`not ${visibleTo(readerId)}`)
    .execute();
  const refused = new Set(hidden.map((row) => row.id));
  return refused.size ? pinIds.filter((id) => !refused.has(id)) : [...pinIds];
}

/** Who may see a private pin: its owner and the members of the boards that hold it, as of now. */
export async function pinViewers(db: Kysely<DB>, pinId: number): Promise<number[]> {
  const { rows } = await sql<{ user_id: number }>`
    select user_id from pins where id = ${pinId}
    union select b.user_id from board_pins bp join boards b on b.id = bp.board_id where bp.pin_id = ${pinId}
    union select m.user_id from board_pins bp join board_members m on m.board_id = bp.board_id where bp.pin_id = ${pinId}`.execute(db);
  return rows.map((row) => row.user_id).sort((a, b) => a - b);
}

/**
 * Who hears a change of the pin, and may read it from the log: `'feed'` (its own events: created,
 * updated) or its room (`'room'`: likes, comments) for everyone when it is public; only its viewers
 * when it is private (in its room, the sockets that may watch it are theirs).
 */
export async function pinAudience(db: Kysely<DB>, pinId: number, kind: 'feed' | 'room'): Promise<Audience> {
  const row = await db.selectFrom('pins').select('visibility').where('id', '=', pinId).executeTakeFirst();
  if (!row || row.visibility === 'public') return kind === 'feed' ? 'feed' : { pinId };
  const userIds = await pinViewers(db, pinId);
  return kind === 'feed' ? { userIds } : { pinId, userIds };
}
