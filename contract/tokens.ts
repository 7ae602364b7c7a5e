import { z } from 'zod';
import { isoTimestamp, requiredText } from './fields.ts';
import { TOKEN_LIMITS, TOKEN_MSG } from './token-rules.ts';

// Personal access tokens (docs/tokens-and-capture.md): scripts, the browser extension and other
// clients call the API with `Authorization: Bearer <secret>` instead of a cookie session.

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
