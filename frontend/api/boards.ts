import type { Board, BoardDeleted, BoardList, BoardPin, BoardPinRemoved } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';

export async function fetchBoards(): Promise<Board[]> {
  return (await api<BoardList>('GET', '/api/boards/')).boards;
}

export function fetchBoard(id: number): Promise<Board> {
  return api<Board>('GET', `/api/boards/${id}`);
}

export function createBoard(name: string): Promise<Board> {
  return createOnce<Board>('/api/boards/', { name });
}

export function renameBoard(id: number, name: string): Promise<Board> {
  return api<Board>('PATCH', `/api/boards/${id}`, { name });
}

export function deleteBoard(id: number): Promise<BoardDeleted> {
  return api<BoardDeleted>('DELETE', `/api/boards/${id}`);
}

export function addPinToBoard(boardId: number, pinId: number): Promise<BoardPin> {
  return api<BoardPin>('POST', `/api/boards/${boardId}/pins`, { pin_id: pinId });
}

export function removePinFromBoard(boardId: number, pinId: number): Promise<BoardPinRemoved> {
  return api<BoardPinRemoved>('DELETE', `/api/boards/${boardId}/pins/${pinId}`);
}
