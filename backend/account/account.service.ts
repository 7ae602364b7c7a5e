import { type Kysely, sql } from 'kysely';
import { MSG } from '../../contract/messages.ts';
import { normalizeUsername } from '../../contract/usernames.ts';
import type { User } from '../../contract/users.ts';
import type { DB } from '../../db/schema.ts';
import { usernameSkeleton } from '../../db/username-skeleton.ts';
import { findUser } from '../auth/auth.service.ts';
import { hashPassword, isRefusedPassword } from '../auth/passwords.ts';
import { HttpError, notFound } from '../errors.ts';

export async function requireUser(db: Kysely<DB>, userId: number): Promise<User> {
  const user = await findUser(db, userId);
  if (!user) throw notFound('Account');
  return user;
}

/**
 * The 409 a new username or email meets when another account has it, as sign-up words it: both at
 * once, and a username that only looks like another's (its confusable skeleton) too. The caller's
 * own account never counts, so a change of case is allowed. The unique indexes still decide a race.
 */
async function refuseTaken(db: Kysely<DB>, userId: number, changes: { username?: string | undefined; email?: string | undefined }): Promise<void> {
  const { username, email } = changes;
  const skeleton = username === undefined ? undefined : usernameSkeleton(username);
  const taken = await db
    .selectFrom('users')
    .select(['email', 'username', 'username_skeleton'])
    .where('id', '!=', userId)
    .where((eb) =>
      eb.or([
        ...(email === undefined ? [] : [eb(sql`lower(email)`, '=', email.toLowerCase())]),
        ...(username === undefined || skeleton === undefined ? [] : [eb(sql`lower(username)`, '=', username.toLowerCase()), eb('username_skeleton', '=', skeleton)]),
      ]),
    )
    .execute();
  const fields: Record<string, string> = {};
  for (const row of taken) {
    if (email !== undefined && row.email.toLowerCase() === email.toLowerCase()) fields.email = MSG.emailTaken;
    if (username !== undefined && row.username.toLowerCase() === username.toLowerCase()) fields.username = MSG.usernameTaken;
    else if (row.username_skeleton === skeleton) fields.username ??= MSG.usernameLookAlike;
  }
  const messages = Object.values(fields);
  if (messages.length > 0) throw new HttpError(409, messages.join(' '), { errors: messages, fields });
}

/**
 * PATCH /api/account: a new username and/or email (the password was checked by the caller). A
 * new email also voids the reset links sent to the old one.
 */
export async function updateAccount(db: Kysely<DB>, userId: number, changes: { username?: string | undefined; email?: string | undefined }): Promise<User> {
  const username = changes.username === undefined ? undefined : normalizeUsername(changes.username);
  const email = changes.email?.toLowerCase();
  await refuseTaken(db, userId, { username, email });
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        ...(username === undefined ? {} : { username, username_skeleton: usernameSkeleton(username) }),
        ...(email === undefined ? {} : { email }),
      })
      .where('id', '=', userId)
      .execute();
    if (email !== undefined) await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  });
  return requireUser(db, userId);
}

/** The new password's hash, refusing one this server never accepts (as sign-up does). */
export async function newPasswordHash(password: string, field: string): Promise<string> {
  if (isRefusedPassword(password)) throw new HttpError(400, MSG.passwordPublic, { fields: { [field]: MSG.passwordPublic } });
  return hashPassword(password);
}

/** Sets the account's password; reset links still out are void from now on. */
export async function setPasswordHash(db: Kysely<DB>, userId: number, hash: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  });
}
