import type { User } from '../../contract/index.ts';
import { api } from './client.ts';

function isUser(value: unknown): value is User {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'number';
}

/** GET /api/auth/ answers {user} or the user itself; anything else means "no session". */
export async function fetchSession(): Promise<User | null> {
  const raw = await api<unknown>('GET', '/api/auth/');
  if (raw && typeof raw === 'object' && 'user' in raw) {
    const user = (raw as { user: unknown }).user;
    return isUser(user) ? user : null;
  }
  return isUser(raw) ? raw : null;
}

export function login(email: string, password: string): Promise<User> {
  return api<User>('POST', '/api/auth/login', { email, password });
}

/** The demo button: the server signs the demo account in, so no password ships to the browser. */
export function demoLogin(): Promise<User> {
  return api<User>('POST', '/api/auth/demo');
}

export function signup(body: { email: string; username: string; password: string }): Promise<User> {
  return api<User>('POST', '/api/auth/signup', body);
}

export async function logout(): Promise<void> {
  await api<unknown>('GET', '/api/auth/logout');
}
