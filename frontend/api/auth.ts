import { SESSION_DATA_ID, type ServedSession } from '../../contract/home.ts';
import type { User } from '../../contract/index.ts';
import { call } from './endpoint.ts';

function isUser(value: unknown): value is User {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
}

/**
 * The session check's answer this document's HTML came with (contract/home.ts), taken once:
 * undefined when there is none (or it was taken), and the page asks GET /api/auth/ instead.
 */
export function takeServedSession(): User | null | undefined {
  const element = document.getElementById(SESSION_DATA_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const served = JSON.parse(element.textContent ?? '') as ServedSession;
    return isUser(served.user) ? served.user : served.user === null ? null : undefined;
  } catch {
    return undefined; // not what the server writes: ask instead
  }
}

/** GET /api/auth/ answers {user} or the user itself; anything else means "no session". */
export async function fetchSession(): Promise<User | null> {
  // Read as unknown: an answer of another shape is "no session", not an error.
  const raw: unknown = await call('GET /api/auth/');
  if (raw && typeof raw === 'object' && 'user' in raw) {
    const user = (raw as { user: unknown }).user;
    return isUser(user) ? user : null;
  }
  return isUser(raw) ? raw : null;
}

export function login(email: string, password: string) {
  return call('POST /api/auth/login', { body: { email, password } });
}

/** The demo button: the server signs the demo account in, so no password ships to the browser. */
export function demoLogin() {
  return call('POST /api/auth/demo');
}

export function signup(body: { email: string; username: string; password: string }) {
  return call('POST /api/auth/signup', { body });
}

export async function logout(): Promise<void> {
  await call('GET /api/auth/logout');
}
