// When the server closes a socket itself, socket.io does not reconnect, and the reason is not
// told: the session may have ended (logged out elsewhere, expired) or the instance may be shutting
// down. Asking the REST API who this tab is now tells the cases apart. The connection acts on the
// outcome; the store follows the session here, as after any session check.
import { fetchSession } from '../api/auth.ts';
import { clearSession, setSessionUser } from '../state/session.ts';
import type { Store } from '../state/store.ts';

/**
 * - `unchanged`: the socket's user is still who this tab is; open a socket for them again.
 * - `changed`: the store now holds the new user (or none), and following the session opens the
 *   right socket.
 * - `unreachable`: the check failed; ask again later.
 * - `outdated`: the socket was closed or replaced meanwhile; nothing to do.
 */
type SessionCheck = 'unchanged' | 'changed' | 'unreachable' | 'outdated';

/** Asks who this tab is now, compared with `socketUser` (null: anonymous). */
export async function recheckSession(store: Store, socketUser: number | null, isCurrent: () => boolean): Promise<SessionCheck> {
  let user;
  try {
    user = await fetchSession();
  } catch {
    return 'unreachable';
  }
  if (!isCurrent()) return 'outdated';
  if ((user?.id ?? null) === socketUser) return 'unchanged';
  if (user) setSessionUser(store, user);
  else clearSession(store);
  return 'changed';
}
