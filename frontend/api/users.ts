import type { PublicUser, UserSearchResult } from '../../contract/index.ts';
import { api } from './client.ts';

/** GET /api/users/?q=: up to 10 users whose username starts with `prefix` (the invite type-ahead). */
export async function searchUsers(prefix: string): Promise<UserSearchResult['users']> {
  return (await api<UserSearchResult>('GET', `/api/users/?q=${encodeURIComponent(prefix)}`)).users;
}

/** GET /api/users/lookup?username=: a user's id and username (404 when there is no such user). */
export function lookupUser(username: string): Promise<PublicUser> {
  return api<PublicUser>('GET', `/api/users/lookup?username=${encodeURIComponent(username)}`);
}
