import { type Kysely, sql } from 'kysely';
import { MSG } from '../../contract/messages.ts';
import { normalizeUsername } from '../../contract/usernames.ts';
import type { SiteSettings } from '../../contract/invites.ts';
import type { SessionBody, User } from '../../contract/users.ts';
import type { DB, UserRow } from '../../db/schema.ts';
import { HttpError, unauthorized } from '../errors.ts';
import { burnVerifyTime, hashPassword, isRefusedPassword, verifyPassword } from './passwords.ts';
import { usernameSkeleton } from '../../db/username-skeleton.ts';
import { claimInvite } from '../invites/invites.service.ts';

function toUser(row: Pick<UserRow, 'id' | 'username' | 'email' | 'first_name'>): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    ...(row.first_name ? { firstName: row.first_name } : {}),
  };
}

const userColumns = ['id', 'username', 'email', 'first_name'] as const;

/** The account, unless it is gone or disabled (docs/site-access.md): either way nobody is signed in as it. */
export async function findUser(db: Kysely<DB>, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').select(userColumns).where('id', '=', id).where('disabled_at', 'is', null).executeTakeFirst();
  return row && toUser(row);
}

/**
 * What GET /api/auth/ answers (and every page's HTML carries): the caller, or null when anonymous,
 * gone or disabled; and how the site is run, so the client shows the right pages.
 */
export async function sessionOf(db: Kysely<DB>, userId: number | undefined, site: SiteSettings): Promise<SessionBody> {
  const user = userId === undefined ? undefined : await findUser(db, userId);
  return { user: user ?? null, site };
}

export async function findUserIdByEmail(db: Kysely<DB>, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/**
 * Creates an account. Taken email and username are both reported at once; a username that only
 * looks like a taken one (same confusable skeleton, e.g. "dеmo" with a Cyrillic е for "demo") is
 * refused too. The unique indexes still decide a race between two sign-ups (mapped to the same 409
 * by the error handler).
 */
export async function signup(
  db: Kysely<DB>,
  input: { email: string; username: string; password: string; firstName?: string | undefined },
  /** The invite code whose use this sign-up takes (SIGNUPS=invite), in the same transaction as the account. */
  invite?: string,
): Promise<User> {
  if (isRefusedPassword(input.password)) throw new HttpError(400, MSG.passwordPublic, { fields: { password: MSG.passwordPublic } });
  // SignupBody has normalised the name already; doing it again keeps the stored form NFKC for any caller.
  const username = normalizeUsername(input.username);
  const skeleton = usernameSkeleton(username);
  const taken = await db
    .selectFrom('users')
    .select(['email', 'username', 'username_skeleton'])
    .where((eb) => eb.or([eb(sql`lower(email)`, '=', input.email.toLowerCase()), eb(sql`lower(username)`, '=', username.toLowerCase()), eb('username_skeleton', '=', skeleton)]))
    .execute();
  const fields: Record<string, string> = {};
  for (const row of taken) {
    if (row.email.toLowerCase() === input.email.toLowerCase()) fields.email = MSG.emailTaken;
    if (row.username.toLowerCase() === username.toLowerCase()) fields.username = MSG.usernameTaken;
    else if (row.username_skeleton === skeleton) fields.username ??= MSG.usernameLookAlike;
  }
  const messages = Object.values(fields);
  if (messages.length > 0) throw new HttpError(409, messages.join(' '), { errors: messages, fields });
  const passwordHash = await hashPassword(input.password);
  const row = await db.transaction().execute(async (trx) => {
    // The use first: a sign-up that loses the race for the last one creates nothing.
    if (invite !== undefined) await claimInvite(trx, invite);
    return trx
      .insertInto('users')
      .values({ email: input.email.toLowerCase(), username, username_skeleton: skeleton, first_name: input.firstName || null, password_hash: passwordHash })
      .returning(userColumns)
      .executeTakeFirstOrThrow();
  });
  return toUser(row);
}

/** Takes back an account whose sign-up could not sign it in: it was never shown to anyone. */
export async function deleteNewAccount(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * The same answer for an unknown email and a wrong password, in the same time. A disabled account
 * says so (403), but only to whoever knows its password: to anyone else it is a wrong password.
 */
export async function login(db: Kysely<DB>, input: { email: string; password: string }): Promise<User> {
  const row = await db
    .selectFrom('users')
    .select([...userColumns, 'password_hash', 'disabled_at'])
    .where(sql`lower(email)`, '=', input.email.toLowerCase())
    .executeTakeFirst();
  if (!row) {
    await burnVerifyTime(input.password);
    throw unauthorized(MSG.badCredentials, { credential: MSG.badCredentials });
  }
  if (!(await verifyPassword(row.password_hash, input.password))) {
    throw unauthorized(MSG.badCredentials, { credential: MSG.badCredentials });
  }
  if (row.disabled_at !== null) throw new HttpError(403, MSG.accountDisabled, { fields: { credential: MSG.accountDisabled } });
  return toUser(row);
}
