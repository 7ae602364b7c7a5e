import { z } from 'zod';
import { isoTimestamp, requiredText } from './fields.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { NextCursor } from './paging.ts';

export const Comment = z
  .object({
    id: z.number().int(),
    text: z.string(),
    pin_id: z.number().int(),
    user_id: z.number().int(),
    username: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

/** Newest first, paged. */
export const CommentList = z.object({ comments: z.array(Comment), nextCursor: NextCursor }).meta({ id: 'CommentList' });
export type CommentList = z.infer<typeof CommentList>;

export const CommentBody = z.object({ text: requiredText(MSG.commentRequired, LIMITS.comment, 'Comment') }).meta({ id: 'CommentBody' });

export const CommentDeleted = z.object({ message: z.string(), id: z.number().int(), pin_id: z.number().int() }).meta({ id: 'CommentDeleted' });
export type CommentDeleted = z.infer<typeof CommentDeleted>;
