import { type Kysely, sql } from 'kysely';
import { LIMITS } from '../../contract/limits.ts';
import type { UserSearchResult } from '../../contract/users.ts';
import type { DB } from '../../db/schema.ts';

/** `%`, `_` and `\` stand for themselves in the prefix, not LIKE patterns (usernames may hold `_`). */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Users whose username starts with `prefix`, case-insensitively, by username (to invite someone to
 * a board). Served by users_username_prefix, an index on lower(username) in the "C" collation
 * (db/migrations/20261126_0008): a LIKE prefix on a "C"-collated expression becomes an index range
 * scan, read in order, so the answer costs about LIMITS.userSearchResults index entries.
 */
export async function searchUsers(db: Kysely<DB>, prefix: string): Promise<UserSearchResult> {
  const key = sql`lower(username) collate "C"`;
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(sql<boolean>`${key} like (lower(${escapeLike(prefix)}) || '%') collate "C"`)
    .orderBy(key)
    .limit(LIMITS.userSearchResults)
    .execute();
  return { users };
}
