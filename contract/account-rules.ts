// Account settings and forgotten passwords (docs/accounts.md): the texts and rules the server and
// the client share, without zod (the client imports them; the schemas are in account.ts).

export const ACCOUNT_MSG = {
  currentPasswordRequired: 'Enter your current password.',
  currentPasswordWrong: 'That is not your current password.',
  nothingToChange: 'Change your username or email (or both).',
  resetRequested: 'If an account uses that email, we have sent it a link to choose a new password.',
  resetLinkInvalid: 'This reset link has expired or was already used. Ask for a new one.',
  resetsPerEmail: 'Too many reset emails were asked for this address. Please wait and try again.',
} as const;

/** The reset link's token: 32 random bytes, base64url (43 characters). */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
