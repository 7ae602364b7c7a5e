import type { Comment, CommentDeleted, CommentList } from '../../contract/index.ts';
import { api, createOnce } from './client.ts';
import { nextCursorOf, withQuery, type PageParams } from './paging.ts';

/** GET /api/comments/pins/{pinId}/comments: one page of a pin's comments, newest first. */
export async function fetchCommentPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<CommentList> {
  const page = await api<CommentList>('GET', withQuery(`/api/comments/pins/${pinId}/comments`, { limit, cursor }));
  return { comments: page.comments, nextCursor: nextCursorOf(page) };
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
