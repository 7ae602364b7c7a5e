import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { ACCOUNT_MSG, RESET_TOKEN_PATTERN } from './account-rules.ts';
import { LoginBody, SignupBody, User } from './users.ts';

// Account settings and forgotten passwords (docs/accounts.md): the wire shapes. Their texts are in
// account-rules.ts, which the client imports without zod.

/** The password that proves it is the account's owner asking (not someone at an unattended screen). */
const currentPassword = z
  .string({ error: ACCOUNT_MSG.currentPasswordRequired })
  .min(1, { error: ACCOUNT_MSG.currentPasswordRequired })
  .max(LIMITS.passwordMax, { error: ACCOUNT_MSG.currentPasswordWrong });

/** A new password follows sign-up's rules. */
const newPassword = SignupBody.shape.password;

/** One signed-in session of the caller's account. `id` names it without being its secret cookie value. */
export const AccountSession = z
  .object({
    id: z.string(),
    current: z.boolean(),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'AccountSession' });
export type AccountSession = z.infer<typeof AccountSession>;

/** GET /api/account */
export const Account = z.object({ user: User, sessions: z.array(AccountSession) }).meta({ id: 'Account' });
export type Account = z.infer<typeof Account>;

/** PATCH /api/account: a new username, a new email, or both, with the current password. */
export const AccountUpdateBody = z
  .object({
    username: SignupBody.shape.username.optional(),
    email: SignupBody.shape.email.optional(),
    currentPassword,
  })
  .refine((body) => body.username !== undefined || body.email !== undefined, { error: ACCOUNT_MSG.nothingToChange, path: ['username'] })
  .meta({ id: 'AccountUpdateBody' });

/** POST /api/account/password */
export const PasswordChangeBody = z.object({ currentPassword, newPassword }).meta({ id: 'PasswordChangeBody' });

/** DELETE /api/account: the password once more. */
export const AccountDeleteBody = z
  .object({
    password: z.string({ error: MSG.passwordRequired }).min(1, { error: MSG.passwordRequired }).max(LIMITS.passwordMax, { error: ACCOUNT_MSG.currentPasswordWrong }),
  })
  .meta({ id: 'AccountDeleteBody' });

/** POST /api/auth/password-reset */
export const PasswordResetRequestBody = z.object({ email: LoginBody.shape.email }).meta({ id: 'PasswordResetRequestBody' });

/** POST /api/auth/password-reset/confirm */
export const PasswordResetConfirmBody = z
  .object({
    token: z.string({ error: ACCOUNT_MSG.resetLinkInvalid }).regex(RESET_TOKEN_PATTERN, { error: ACCOUNT_MSG.resetLinkInvalid }),
    password: newPassword,
  })
  .meta({ id: 'PasswordResetConfirmBody' });

/** A 204 answer: nothing in the body. */
export const NoContent = z.undefined();
