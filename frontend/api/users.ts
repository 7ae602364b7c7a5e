import type { BoardList, UserSearchResult } from '../../contract/index.ts';
import { call } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/users/?q=: up to 10 users whose username starts with `prefix` (the invite type-ahead). */
export async function searchUsers(prefix: string): Promise<UserSearchResult['users']> {
  return (await call('GET /api/users/', { query: { q: prefix } })).users;
}

/** GET /api/users/lookup?username=: a user's profile, with their pin count (404 when there is no such user). */
export function lookupUser(username: string) {
  return call('GET /api/users/lookup', { query: { username } });
}

/** GET /api/users/{id}/boards: the boards of a profile the reader may see (both are members of). */
export async function fetchProfileBoards(userId: number, { cursor, limit }: PageParams = {}): Promise<BoardList> {
  const page = await call('GET /api/users/{id}/boards', { params: { id: userId }, query: { limit, cursor } });
  return { boards: page.boards, nextCursor: nextCursorOf(page) };
}
