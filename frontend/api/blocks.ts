import type { BlockBody } from '../../contract/blocks.ts';
import { call } from './endpoint.ts';

// Blocking who may add you to boards (docs/board-sharing.md, "Consent"): POST /api/users/blocks
// takes {userId, leaveBoardId?}, so leaving a board and blocking whoever added you is one call.

/** Blocks `userId` from adding you to boards; with `leaveBoardId`, leaves that board first. */
export function blockUser(userId: number, leaveBoardId?: number) {
  const body: BlockBody = leaveBoardId === undefined ? { userId } : { userId, leaveBoardId };
  return call('POST /api/users/blocks', { body });
}
