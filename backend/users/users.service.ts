import type { Kysely } from 'kysely';
import type { UserProfile } from '../../contract/users.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../errors.ts';

/**
 * A user's public face, by username as typed in a link (case-insensitive, like sign-up's
 * uniqueness). Its pin count is of the pins everyone may see; their owner (`readerId`) counts their
 * private pins too, as their own list shows them (docs/who-sees-what.md).
 */
export async function lookupUser(db: Kysely<DB>, username: string, readerId: number | undefined): Promise<UserProfile> {
  // lower(username) is unique (migration 0001), so this is one index probe.
  const user = await db
    .selectFrom('users')
    // The counts are columns kept by a trigger (migrations 0014, 0023): no count over the user's pins.
    .select(['id', 'username', 'pin_count', 'private_pin_count'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  if (!user) throw notFound('User');
  return { id: user.id, username: user.username, pin_count: user.pin_count + (user.id === readerId ? user.private_pin_count : 0) };
}

/** 404 unless a user has this id (a primary-key probe). */
export async function requireUser(db: Kysely<DB>, id: number): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound('User');
}
