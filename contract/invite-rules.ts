// The rules of invite links and of who may join (docs/site-access.md), zod-free so the client may
// import them as values (contract/invites.ts holds the schemas).

export const INVITE_RULES = {
  /** Where an invite opens: `/signup?invite=<code>`. */
  signupPath: '/signup',
  param: 'invite',
  /** A code: 16 random bytes as base64url, 22 URL-safe characters. */
  codePattern: /^[A-Za-z0-9_-]{22}$/,
  /** Sign-ups one invite may allow. */
  usesMax: 100,
  /** An invite lasts this many days unless its maker says otherwise, and at most `daysMax`. */
  daysDefault: 7,
  daysMax: 365,
  /** Invites one member may hold at once (used-up and expired ones count until revoked). */
  perUser: 50,
} as const;

/** The address an invite's code opens (relative: the client or the operator puts the site in front). */
export const inviteUrl = (code: string) => `${INVITE_RULES.signupPath}?${INVITE_RULES.param}=${code}`;
