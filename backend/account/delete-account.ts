import type { ServiceContext } from '../context.ts';
import { removeMember } from '../boards/board-members.service.ts';
import { deleteBoard } from '../boards/boards.service.ts';
import { write } from '../changes/write.ts';
import { deleteComment } from '../comments/comments.service.ts';
import { HttpError } from '../errors.ts';
import { removeFavorite } from '../favorites/favorites.service.ts';
import { deletePin } from '../pins/pins.service.ts';
import { endSessionsOf, type SessionEnding } from './end-sessions.ts';

export interface AccountDeletion {
  ctx: ServiceContext;
  /** The token caches of every instance (backend/tokens/token-verifier.ts). */
  tokens: { revoked(secretHash: string): Promise<void> };
  sessions: SessionEnding;
}

/** A thing that went away meanwhile (a pin its owner deleted in another tab) is not a failure. */
async function unlessGone(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 404)) throw error;
  }
}

/**
 * DELETE /api/account (docs/accounts.md), once the password was checked. Others must see the
 * account go as they see any deletion, live and in the change log, so each thing goes through the
 * service that deletes it one by one, and publishes what it publishes: others' pins lose their
 * favorite (`pin:likes`) and comment (`comment:deleted`), boards shared with the user lose a
 * member (`board:member-removed`), the user's boards go (`board:deleted` to their members) and
 * their pins (`pin:deleted`). Images no other pin uses are swept later (backend/images/sweep.ts).
 *
 * Tokens and the other sessions end first, so nothing new is made meanwhile; a failure half way
 * leaves an account the user can delete again. The last transaction locks the account's row
 * (a pin or comment being written waits for it, then fails), deletes what is still there and
 * the account itself; the rows that name it (tokens, reset links, blocks…) go with it.
 */
export async function deleteAccount(deps: AccountDeletion, userId: number, currentSid: string): Promise<void> {
  const { ctx } = deps;
  const db = ctx.db;
  const tokens = await db.deleteFrom('api_tokens').where('user_id', '=', userId).returning('secret_hash').execute();
  await Promise.all(tokens.map((token) => deps.tokens.revoked(token.secret_hash)));
  await endSessionsOf(deps.sessions, userId, { except: currentSid });

  const favorites = await db
    .selectFrom('favorites')
    .innerJoin('pins', 'pins.id', 'favorites.pin_id')
    .select('favorites.id')
    .where('favorites.user_id', '=', userId)
    .where('pins.user_id', '!=', userId)
    .execute();
  for (const { id } of favorites) await unlessGone(removeFavorite(ctx, userId, id));
  const comments = await db
    .selectFrom('comments')
    .innerJoin('pins', 'pins.id', 'comments.pin_id')
    .select('comments.id')
    .where('comments.user_id', '=', userId)
    .where('pins.user_id', '!=', userId)
    .execute();
  for (const { id } of comments) await unlessGone(deleteComment(ctx, userId, id));
  const memberships = await db.selectFrom('board_members').select('board_id').where('user_id', '=', userId).execute();
  for (const { board_id } of memberships) await unlessGone(removeMember(ctx, userId, board_id, userId));
  const boards = await db.selectFrom('boards').select('id').where('user_id', '=', userId).execute();
  for (const { id } of boards) await unlessGone(deleteBoard(ctx, userId, id));
  const pins = await db.selectFrom('pins').select('id').where('user_id', '=', userId).execute();
  for (const { id } of pins) await unlessGone(deletePin(ctx, userId, id));

  await write(ctx, async (trx) => {
    const inTrx = { ...ctx, db: trx };
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    for (const { id } of await trx.selectFrom('boards').select('id').where('user_id', '=', userId).execute()) await deleteBoard(inTrx, userId, id);
    for (const { id } of await trx.selectFrom('pins').select('id').where('user_id', '=', userId).execute()) await deletePin(inTrx, userId, id);
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}
