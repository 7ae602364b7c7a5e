import { z } from 'zod';
import { isoTimestamp, requiredText } from './fields.ts';

// Personal access tokens (docs/tokens-and-capture.md): scripts, the browser extension and other
// clients call the API with `Authorization: Bearer <secret>` instead of a cookie session.

/** Every secret starts with this, so a leaked one is easy to recognise (and to scan for). */
export const TOKEN_PREFIX = 'pb_';

/** `pb_` and 43 base64url characters (32 random bytes): anything else is malformed. */
export const TOKEN_SECRET_PATTERN = /^pb_[A-Za-z0-9_-]{43}$/;

export const TOKEN_LIMITS = {
  name: 100,
  /** Tokens one user may hold (expired ones included, until revoked): the list needs no paging. */
  perUser: 100,
  maxDays: 3650,
} as const;

export const TOKEN_MSG = {
  nameRequired: 'Token name is required.',
  scopeInvalid: 'Scope must be read or write.',
  expiresInvalid: `expiresInDays must be a whole number from 1 to ${TOKEN_LIMITS.maxDays}.`,
  tooMany: `You can have at most ${TOKEN_LIMITS.perUser} tokens. Revoke one first.`,
  malformed: 'Send a personal access token as "Authorization: Bearer pb_…".',
  invalid: 'This token is not valid: it was revoked, or never existed.',
  expired: 'This token has expired.',
  readOnly: 'This token is read-only: it can only read (GET).',
  sessionOnly: 'A token cannot do this: sign in with the browser instead.',
  copied: 'Token copied to the clipboard.',
} as const;

export const TOKEN_SCOPES = ['read', 'write'] as const;
export const TokenScope = z.enum(TOKEN_SCOPES, { error: TOKEN_MSG.scopeInvalid });
export type TokenScope = z.infer<typeof TokenScope>;

/** A token as listed: never its secret. */
export const ApiToken = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scope: TokenScope,
    createdAt: isoTimestamp,
    /** Null: it never expires. */
    expiresAt: isoTimestamp.nullable(),
    /** Null: never used. Updated about once a minute, not on every call. */
    lastUsedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiToken>;

export const TokenCreateBody = z
  .object({
    name: requiredText(TOKEN_MSG.nameRequired, TOKEN_LIMITS.name, 'Name'),
    scope: TokenScope,
    expiresInDays: z
      .number({ error: TOKEN_MSG.expiresInvalid })
      .int({ error: TOKEN_MSG.expiresInvalid })
      .min(1, { error: TOKEN_MSG.expiresInvalid })
      .max(TOKEN_LIMITS.maxDays, { error: TOKEN_MSG.expiresInvalid })
      .optional(),
  })
  .meta({ id: 'TokenCreateBody' });
export type TokenCreateBody = z.input<typeof TokenCreateBody>;

/** POST /api/tokens: the one time the secret is shown. */
export const TokenCreated = z.object({ token: ApiToken, secret: z.string() }).meta({ id: 'TokenCreated' });
export type TokenCreated = z.infer<typeof TokenCreated>;

export const TokenList = z.object({ tokens: z.array(ApiToken) }).meta({ id: 'TokenList' });
export type TokenList = z.infer<typeof TokenList>;

export const TokenRevoked = z.object({ message: z.string(), id: z.number().int() }).meta({ id: 'TokenRevoked' });
