import type { Board, BoardDeleted, BoardList, BoardMember, BoardMemberRemoved, BoardMembers, BoardPage, BoardPin, BoardPinRemoved } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

/** GET /api/boards/: one page of the signed-in user's boards, newest first, each with its covers. */
export async function fetchBoardPage({ cursor, limit }: PageParams = {}): Promise<BoardList> {
  const page = await api<BoardList>('GET', withQuery('/api/boards/', { limit, cursor }));
  return { boards: page.boards, nextCursor: nextCursorOf(page) };
}

/** GET /api/boards/{id}: the board with one page of its pins, most recently added first. */
export async function fetchBoard(id: number, { cursor, limit }: PageParams = {}): Promise<BoardPage> {
  const page = await api<BoardPage>('GET', withQuery(`/api/boards/${id}`, { limit, cursor }));
  return { ...page, nextCursor: nextCursorOf(page) };
}

export function createBoard(name: string): Promise<Board> {
  return createOnce<Board>('/api/boards/', { name });
}

export function renameBoard(id: number, name: string): Promise<Board> {
  return api<Board>('PATCH', `/api/boards/${id}`, { name });
}

export function deleteBoard(id: number, options: { keepalive?: boolean } = {}): Promise<BoardDeleted> {
  return api<BoardDeleted>('DELETE', `/api/boards/${id}`, undefined, options);
}

export function addPinToBoard(boardId: number, pinId: number): Promise<BoardPin> {
  return api<BoardPin>('POST', `/api/boards/${boardId}/pins`, { pin_id: pinId });
}

export function removePinFromBoard(boardId: number, pinId: number): Promise<BoardPinRemoved> {
  return api<BoardPinRemoved>('DELETE', `/api/boards/${boardId}/pins/${pinId}`);
}

/** GET /api/boards/{id}/members: the owner first, then collaborators (members only). */
export async function fetchBoardMembers(boardId: number): Promise<BoardMember[]> {
  return (await api<BoardMembers>('GET', `/api/boards/${boardId}/members`)).members;
}

/** POST /api/boards/{id}/members (owner): invite a user by username. */
export function addBoardMember(boardId: number, username: string): Promise<BoardMember> {
  return api<BoardMember>('POST', `/api/boards/${boardId}/members`, { username });
}

/** DELETE /api/boards/{id}/members/{userId}: the owner removes a collaborator, or a collaborator leaves. */
export function removeBoardMember(boardId: number, userId: number): Promise<BoardMemberRemoved> {
  return api<BoardMemberRemoved>('DELETE', `/api/boards/${boardId}/members/${userId}`);
}
