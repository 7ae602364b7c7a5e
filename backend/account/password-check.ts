import type { Request } from 'express';
import type { Kysely } from 'kysely';
import { ACCOUNT_MSG } from '../../contract/account-rules.ts';
import type { DB } from '../../db/schema.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { HttpError, notFound } from '../errors.ts';

/**
 * Checks that `password` is the signed-in user's own before a change that needs it (docs/accounts.md).
 * Guesses are slowed and limited like sign-in's, on the same counters (backend/auth/login-throttle.ts):
 * a stolen session is no faster a way to guess the password than the sign-in form. A wrong one is
 * 400 with the message on `field`, so the form shows it under that input.
 */
export async function checkOwnPassword(deps: { db: Kysely<DB>; throttle: LoginThrottle }, req: Request, userId: number, password: string, field: string): Promise<void> {
  const row = await deps.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('Account');
  const attempt = await deps.throttle.begin(row.email, req.ip ?? '');
  let right: boolean;
  try {
    right = await verifyPassword(row.password_hash, password);
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  if (!right) throw new HttpError(400, ACCOUNT_MSG.currentPasswordWrong, { fields: { [field]: ACCOUNT_MSG.currentPasswordWrong } });
  await attempt.succeeded();
}
