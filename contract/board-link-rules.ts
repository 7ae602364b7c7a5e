// The rules of board links (docs/board-sharing.md, "Links"), zod-free so the client may import
// them as values (contract/board-links.ts holds the schemas).

export const BOARD_LINK_RULES = {
  /** Where a link opens: `/b/<secret>`. */
  pathPrefix: '/b/',
  /** A secret: 32 random bytes as base64url, 43 URL-safe characters. */
  secretPattern: /^[A-Za-z0-9_-]{43}$/,
  /** Links one board may have at once (GET /api/boards/{id}/links lists them all, unpaged). */
  perBoard: 20,
} as const;

export const BOARD_LINK_MSG = {
  notFound: 'This link does not exist or was revoked.',
  tooMany: `A board can have at most ${BOARD_LINK_RULES.perBoard} links. Revoke one first.`,
} as const;
