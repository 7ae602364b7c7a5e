import { createHash } from 'node:crypto';
import type { Store } from 'express-session';
import type { EventPublisher } from '../bus/event-bus.ts';
import { sessionDirectory } from '../http/session.ts';
import type { ListedSession } from '../http/session-directory.ts';

/** What ending sessions needs: the session store (the request's `req.sessionStore`) and the bus. */
export interface SessionEnding {
  store: Store;
  events: EventPublisher;
}

/**
 * How a session is named to its user: a digest of its id. The id itself is the secret half of the
 * session cookie, which a page's script never sees; its digest names it without giving it away.
 */
export function sessionHandle(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url').slice(0, 22);
}

/** The user's sessions that still exist (docs/accounts.md). */
export function sessionsOf(store: Store, userId: number): Promise<ListedSession[]> {
  return sessionDirectory(store).sessionsOf(userId);
}

function destroy(store: Store, sid: string): Promise<void> {
  return new Promise((resolve, reject) => store.destroy(sid, (error?: unknown) => (error ? reject(error as Error) : resolve())));
}

/**
 * Ends every session of the account (but `except`, the caller's own, when given) and, through
 * `session.ended`, their sockets on every instance at once (backend/realtime/relay.ts). Each is
 * destroyed through the store the app uses, so the other instances' session caches forget it
 * before this resolves (backend/http/cached-session-store.ts). Answers how many ended.
 * Used by a password change or reset, "Sign out everywhere else", a deleted account, and the
 * operator's command that disables one.
 */
export async function endSessionsOf(deps: SessionEnding, userId: number, options: { except?: string } = {}): Promise<number> {
  const sessions = await sessionsOf(deps.store, userId);
  const ending = sessions.filter((session) => session.sid !== options.except);
  await Promise.all(
    ending.map(async ({ sid }) => {
      await destroy(deps.store, sid);
      deps.events.publish('session.ended', { userId, sessionId: sid });
    }),
  );
  return ending.length;
}
