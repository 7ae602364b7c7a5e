import type { User } from '../../contract/index.ts';
import { call } from './endpoint.ts';

function isUser(value: unknown): value is User {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
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
