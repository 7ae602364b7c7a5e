import type { CommentList } from '../../contract/index.ts';
import { call, createVia } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/comments/pins/{pinId}/comments: one page of a pin's comments, newest first. */
export async function fetchCommentPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<CommentList> {
  const page = await call('GET /api/comments/pins/{pinId}/comments', { params: { pinId }, query: { limit, cursor } });
  return { comments: page.comments, nextCursor: nextCursorOf(page) };
}

export function createComment(pinId: number, text: string) {
  return createVia('POST /api/comments/pins/{pinId}/comments', { params: { pinId }, body: { text } });
}

export function updateComment(id: number, text: string) {
  return call('PUT /api/comments/{id}', { params: { id }, body: { text } });
}

export function deleteComment(id: number) {
  return call('DELETE /api/comments/{id}', { params: { id } });
}
