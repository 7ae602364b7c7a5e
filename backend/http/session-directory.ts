import type { SessionData } from 'express-session';

/** One signed-in session as its user's session list shows it (GET /api/account, docs/accounts.md). */
export interface ListedSession {
  /** The store's session id: never sent to a browser as it is (the account routes hash it). */
  sid: string;
  createdAt: Date;
  /** When a request last came with it, to the minute; its sign-in time until one did. */
  lastSeenAt: Date;
  userAgent: string | null;
}

/**
 * What each session store knows of one user's sessions, so that a user can list theirs and end all
 * but one (a password change, "Sign out everywhere else", a deleted or disabled account). The
 * embedded store indexes its sessions by user already; the Redis one keeps a hash per user
 * (redis-session-index.ts).
 */
export interface SessionDirectory {
  /** The user's sessions that still exist, oldest first. */
  sessionsOf(userId: number): Promise<ListedSession[]>;
  /**
   * A request came with this signed-in session: notes when and from which user agent. Coarse (at
   * most one write per session per SEEN_EVERY_MS on an instance), and never fails the request.
   */
  seen(sid: string, session: SeenSession, userAgent: string | undefined): void;
}

/** What `seen` reads of a loaded session: whose it is and its cookie. */
export type SeenSession = Pick<SessionData, 'cookie'> & { userId?: number | undefined };

/** "Last seen" is kept to the minute: a write per request would cost a store write per read. */
export const SEEN_EVERY_MS = 60_000;

/** User agents are kept to this length: enough to name a browser and a system. */
export const USER_AGENT_MAX = 300;

export function trimUserAgent(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null;
}

/**
 * When the session signed in: sessions do not roll (backend/http/session.ts), so its cookie's
 * expiry is its sign-in time plus the cookie's original lifetime.
 */
export function signedInAt(session: Pick<SessionData, 'cookie'>): Date {
  const { expires, originalMaxAge } = session.cookie;
  if (expires && originalMaxAge !== null && originalMaxAge !== undefined) return new Date(new Date(expires).getTime() - originalMaxAge);
  return new Date();
}

/** When the session's cookie expires (a day from now for a cookie without one, as the embedded store keeps it). */
export function expiresAt(session: Pick<SessionData, 'cookie'>): number {
  const { expires } = session.cookie;
  return expires ? new Date(expires).getTime() : Date.now() + 24 * 3600_000;
}
