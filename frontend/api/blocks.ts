import type { PublicUser } from '../../contract/index.ts';
import { api } from './client.ts';

// Blocking who may add you to boards (docs/board-sharing.md, "Consent"): POST /api/users/blocks
// takes {userId, leaveBoardId?}, so leaving a board and blocking whoever added you is one call.

export interface Block extends PublicUser {
  blocked_at: string;
}

/** Blocks `userId` from adding you to boards; with `leaveBoardId`, leaves that board first. */
export function blockUser(userId: number, leaveBoardId?: number): Promise<Block> {
  return api<Block>('POST', '/api/users/blocks', leaveBoardId === undefined ? { userId } : { userId, leaveBoardId });
}
