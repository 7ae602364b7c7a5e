import type { Comment, CommentDeleted, CommentList } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';

export async function fetchComments(pinId: number): Promise<Comment[]> {
  return (await api<CommentList>('GET', `/api/comments/pins/${pinId}/comments`)).comments;
}

export function createComment(pinId: number, text: string): Promise<Comment> {
  return createOnce<Comment>(`/api/comments/pins/${pinId}/comments`, { text });
}

export function updateComment(id: number, text: string): Promise<Comment> {
  return api<Comment>('PUT', `/api/comments/${id}`, { text });
}

export function deleteComment(id: number): Promise<CommentDeleted> {
  return api<CommentDeleted>('DELETE', `/api/comments/${id}`);
}
