import type { Kysely } from 'kysely';
import type { UserProfile } from '../../contract/users.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../errors.ts';

/** A user's public face, by username as typed in a link (case-insensitive, like sign-up's uniqueness). */
export async function lookupUser(db: Kysely<DB>, username: string): Promise<UserProfile> {
  // lower(username) is unique (migration 0001), so this is one index probe.
  const user = await db
    .selectFrom('users')
    // pin_count is a column kept by a trigger (migration 0014): no count over the user's pins.
    .select(['id', 'username', 'pin_count'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  if (!user) throw notFound('User');
  return user;
}

/** 404 unless a user has this id (a primary-key probe). */
export async function requireUser(db: Kysely<DB>, id: number): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound('User');
}
