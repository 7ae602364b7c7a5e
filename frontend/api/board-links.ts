import type { BoardVisibility } from '../../contract/boards.ts';
import type { EndpointAnswer } from '../../contract/endpoints.ts';
import { api } from './client.ts';
import { call } from './endpoint.ts';
import { nextCursorOf, type PageParams, withQuery } from './paging.ts';

// Public boards and secret read-only links (docs/board-sharing.md, "Public boards and links").

/** PATCH /api/boards/{id} (owner): who may read the board. */
export function setBoardVisibility(id: number, visibility: BoardVisibility) {
  return call('PATCH /api/boards/{id}', { params: { id }, body: { visibility } });
}

/** POST /api/boards/{id}/links (owner): a new link; its `url` is in this answer only. */
export function createBoardLink(boardId: number) {
  return call('POST /api/boards/{id}/links', { params: { id: boardId } });
}

/** GET /api/boards/{id}/links (owner): newest first, without secrets. */
export async function fetchBoardLinks(boardId: number) {
  return (await call('GET /api/boards/{id}/links', { params: { id: boardId } })).links;
}

/** DELETE /api/boards/{id}/links/{linkId} (owner). */
export function revokeBoardLink(boardId: number, linkId: number) {
  return call('DELETE /api/boards/{id}/links/{linkId}', { params: { id: boardId, linkId } });
}

export type LinkedBoardPage = EndpointAnswer<'GET /api/links/{secret}'>;

/**
 * GET /api/links/{secret}: the board a link opens and one page of its pins. Called directly: the
 * route table's calls fill ids into paths, and a secret is not an id.
 */
export async function fetchLinkedBoard(secret: string, { cursor, limit }: PageParams = {}): Promise<LinkedBoardPage> {
  const page = await api<LinkedBoardPage>('GET', withQuery(`/api/links/${encodeURIComponent(secret)}`, { cursor, limit }));
  return { ...page, nextCursor: nextCursorOf(page) };
}
