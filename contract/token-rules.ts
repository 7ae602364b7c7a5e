// No zod here: the web client imports these, and zod would weigh on its first script
// (the schemas are in tokens.ts).

// Personal access tokens (docs/tokens-and-capture.md).

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
