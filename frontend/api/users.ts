import type { BoardList, UserProfile, UserSearchResult } from '../../contract/index.ts';
import { api } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

/** GET /api/users/?q=: up to 10 users whose username starts with `prefix` (the invite type-ahead). */
export async function searchUsers(prefix: string): Promise<UserSearchResult['users']> {
  return (await api<UserSearchResult>('GET', `/api/users/?q=${encodeURIComponent(prefix)}`)).users;
}

/** GET /api/users/lookup?username=: a user's profile, with their pin count (404 when there is no such user). */
export function lookupUser(username: string): Promise<UserProfile> {
  return api<UserProfile>('GET', `/api/users/lookup?username=${encodeURIComponent(username)}`);
}

/** GET /api/users/{id}/boards: the boards of a profile the reader may see (both are members of). */
export async function fetchProfileBoards(userId: number, { cursor, limit }: PageParams = {}): Promise<BoardList> {
  const page = await api<BoardList>('GET', withQuery(`/api/users/${userId}/boards`, { limit, cursor }));
  return { boards: page.boards, nextCursor: nextCursorOf(page) };
}
