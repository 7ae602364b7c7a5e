import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ACCOUNT_MSG } from '../../contract/account-rules.ts';
import type { DB } from '../../db/schema.ts';
import { findUserIdByEmail } from '../auth/auth.service.ts';
import { HttpError } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { newPasswordHash } from './account.service.ts';
import { endSessionsOf, type SessionEnding } from './end-sessions.ts';

/** How long a reset link works. */
export const RESET_LINK_MS = 60 * 60_000;

/** Only the digest of a token is stored: the database alone opens no account. */
function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new single-use reset link for the account with this email, valid for an hour, or undefined
 * when no account has it. `origin` (e.g. `https://pins.example`) is put in front of the path
 * `/reset-password?token=…`. The operator's command (`npm run users -- reset-link EMAIL`) prints
 * one; POST /api/auth/password-reset mails one.
 */
export async function createResetLink(ctx: { db: Kysely<DB> }, email: string, origin = ''): Promise<string | undefined> {
  const userId = await findUserIdByEmail(ctx.db, email);
  if (userId === undefined) return undefined;
  // 32 random bytes: 43 URL-safe characters (contract/account.ts RESET_TOKEN_PATTERN).
  const token = randomBytes(32).toString('base64url');
  await ctx.db.transaction().execute(async (trx) => {
    // Links of this account that are past their hour are of no use to anyone: drop them now.
    await trx.deleteFrom('password_resets').where('user_id', '=', userId).where('expires_at', '<=', new Date()).execute();
    await trx
      .insertInto('password_resets')
      .values({ user_id: userId, token_hash: digest(token), expires_at: new Date(Date.now() + RESET_LINK_MS) })
      .execute();
  });
  return `${origin}/reset-password?token=${token}`;
}

/** The reset mail: plain text, the link alone, and what to do if it was not asked for. */
export async function mailResetLink(deps: { db: Kysely<DB>; mailer: Mailer }, email: string, origin: string): Promise<void> {
  const link = await createResetLink(deps, email, origin);
  if (link === undefined) return;
  await deps.mailer.send({
    to: email,
    subject: 'Reset your Pinboard password',
    text: [
      'Someone (we hope you) asked to reset the password of your Pinboard account.',
      '',
      'Choose a new password here (the link works once, for one hour):',
      link,
      '',
      'If you did not ask, ignore this email: your password stays as it is.',
    ].join('\n'),
  });
}

/**
 * POST /api/auth/password-reset/confirm: takes the link (once: its row is deleted as it is used),
 * sets the password, voids the account's other links, and ends every session of the account. A
 * used, expired or unknown link is one answer: 400.
 */
export async function resetPassword(deps: { db: Kysely<DB>; sessions: SessionEnding }, token: string, password: string): Promise<void> {
  // Hashed before the link is taken: a busy server (503) leaves the link usable.
  const hash = await newPasswordHash(password, 'password');
  const userId = await deps.db.transaction().execute(async (trx) => {
    const used = await trx.deleteFrom('password_resets').where('token_hash', '=', digest(token)).where('expires_at', '>', new Date()).returning('user_id').executeTakeFirst();
    if (!used) return undefined;
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', used.user_id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', used.user_id).execute();
    return used.user_id;
  });
  if (userId === undefined) throw new HttpError(400, ACCOUNT_MSG.resetLinkInvalid, { fields: { token: ACCOUNT_MSG.resetLinkInvalid } });
  await endSessionsOf(deps.sessions, userId);
}
