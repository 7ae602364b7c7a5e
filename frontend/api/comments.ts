import type { Comment, CommentList } from '../../contract/index.ts';
import { call, createVia } from './endpoint.ts';
import { nextCursorOf, type PageParams } from './paging.ts';

/** GET /api/comments/pins/{pinId}/comments: one page of a pin's comments, newest first. */
export async function fetchCommentPage(pinId: number, { cursor, limit }: PageParams = {}): Promise<CommentList> {
  const page = await call('GET /api/comments/pins/{pinId}/comments', { params: { pinId }, query: { limit, cursor } });
  return { comments: page.comments, nextCursor: nextCursorOf(page) };
}

/** Sends a new comment and resolves with it (or with a stand-in while it waits in the outbox). */
type CommentSender = (pinId: number, text: string) => Promise<Comment>;
let commentSender: CommentSender | undefined;

/**
 * The outbox (frontend/outbox/, docs/outbox.md) sends new comments once the app has started it:
 * this folder sits under it, so it hands its sender in here (the layout). Returns the undo.
 */
export function sendCommentsThrough(sender: CommentSender): () => void {
  commentSender = sender;
  return () => {
    if (commentSender === sender) commentSender = undefined;
  };
}

export function createComment(pinId: number, text: string): Promise<Comment> {
  if (commentSender) return commentSender(pinId, text);
  return createVia('POST /api/comments/pins/{pinId}/comments', { params: { pinId }, body: { text } });
}

export function updateComment(id: number, text: string) {
  return call('PUT /api/comments/{id}', { params: { id }, body: { text } });
}

export function deleteComment(id: number) {
  return call('DELETE /api/comments/{id}', { params: { id } });
}
