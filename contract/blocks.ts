import { z } from 'zod';
import { idField, isoTimestamp } from './fields.ts';
import { NextCursor } from './paging.ts';

// Blocking (docs/board-sharing.md): a user blocks another from adding them to boards. The blocked
// user is not told: their invitation is answered as if the username did not exist.

/** Someone you blocked, and since when. */
export const BlockedUser = z.object({ id: z.number().int(), username: z.string(), blocked_at: isoTimestamp }).meta({ id: 'BlockedUser' });
export type BlockedUser = z.infer<typeof BlockedUser>;

/** GET /api/users/blocks: the users you blocked, most recently blocked first, paged. */
export const BlockList = z.object({ blocks: z.array(BlockedUser), nextCursor: NextCursor }).meta({ id: 'BlockList' });
export type BlockList = z.infer<typeof BlockList>;

/**
 * POST /api/users/blocks: block `userId` (typically a board's owner, from `added_by`), and with
 * `leaveBoardId` also leave that board in the same call.
 */
export const BlockBody = z.object({ userId: idField('userId'), leaveBoardId: idField('leaveBoardId').optional() }).meta({ id: 'BlockBody' });
export type BlockBody = z.input<typeof BlockBody>;

/** DELETE /api/users/blocks/{userId}. */
export const Unblocked = z.object({ message: z.string(), user_id: z.number().int() }).meta({ id: 'Unblocked' });
export type Unblocked = z.infer<typeof Unblocked>;
