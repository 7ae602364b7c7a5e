import type { Kysely } from 'kysely';
import type { PublicUser } from '../../contract/users.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../errors.ts';

/** A user's public face, by username as typed in a link (case-insensitive, like sign-up's uniqueness). */
export async function lookupUser(db: Kysely<DB>, username: string): Promise<PublicUser> {
  // lower(username) is unique (migration 0001), so this is one index probe.
  const user = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
  if (!user) throw notFound('User');
  return user;
}
