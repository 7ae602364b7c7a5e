import type { BoardList, BoardMember, BoardPage } from '../../contract/index.ts';
import { call, createVia } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/boards/: one page of the signed-in user's boards, newest first, each with its covers. */
export async function fetchBoardPage({ cursor, limit }: PageParams = {}): Promise<BoardList> {
  const page = await call('GET /api/boards/', { query: { limit, cursor } });
  return { boards: page.boards, nextCursor: nextCursorOf(page) };
}

/** GET /api/boards/{id}: the board with one page of its pins, most recently added first. */
export async function fetchBoard(id: number, { cursor, limit }: PageParams = {}): Promise<BoardPage> {
  const page = await call('GET /api/boards/{id}', { params: { id }, query: { limit, cursor } });
  return { ...page, nextCursor: nextCursorOf(page) };
}

export function createBoard(name: string) {
  return createVia('POST /api/boards/', { body: { name } });
}

export function renameBoard(id: number, name: string) {
  return call('PATCH /api/boards/{id}', { params: { id }, body: { name } });
}

export function deleteBoard(id: number, options: { keepalive?: boolean } = {}) {
  return call('DELETE /api/boards/{id}', { params: { id }, ...options });
}

export function addPinToBoard(boardId: number, pinId: number) {
  return call('POST /api/boards/{id}/pins', { params: { id: boardId }, body: { pin_id: pinId } });
}

export function removePinFromBoard(boardId: number, pinId: number) {
  return call('DELETE /api/boards/{id}/pins/{pinId}', { params: { id: boardId, pinId } });
}

/** GET /api/boards/{id}/members: the owner first, then collaborators (members only). */
export async function fetchBoardMembers(boardId: number): Promise<BoardMember[]> {
  return (await call('GET /api/boards/{id}/members', { params: { id: boardId } })).members;
}

/** POST /api/boards/{id}/members (owner): invite a user by username. */
export function addBoardMember(boardId: number, username: string) {
  return call('POST /api/boards/{id}/members', { params: { id: boardId }, body: { username } });
}

/** DELETE /api/boards/{id}/members/{userId}: the owner removes a collaborator, or a collaborator leaves. */
export function removeBoardMember(boardId: number, userId: number) {
  return call('DELETE /api/boards/{id}/members/{userId}', { params: { id: boardId, userId } });
}
