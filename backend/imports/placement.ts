import { type Kysely, sql } from 'kysely';
import type { BoardPin } from '../../contract/boards.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { DB } from '../../db/schema.ts';
import { boardAccess, memberIdsOf } from '../boards/board-access.ts';
import { createBoard } from '../boards/boards.service.ts';
import { write } from '../changes/write.ts';
import { createComment } from '../comments/comments.service.ts';
import type { ServiceContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { addFavorite } from '../favorites/favorites.service.ts';
import { imageOf, toPinImage } from '../images/media-urls.ts';
import { boardNameOf, clip } from './items.ts';
import { ImportExtra } from './extra.ts';

// Once an import's pins exist, they go in their boards (docs/import-export.md), in order: a board
// shows its most recently added pin first, so each board's pins are added last to first and the
// file's first pin ends up on top, as it was. Boards are found by name among the user's own, or
// made (and remembered, so that undo can remove them). An export's favorites and comments follow.
// Everything here may run again (after a retry of failed items): what is in place already stays.

/** Board entries added per transaction: each is a change of its own in the log. */
const CHUNK = 100;

interface ImportRow {
  id: number;
  user_id: number;
  kind: DB['imports']['kind'];
  extra: unknown;
}

/**
 * The user's board named `text` (as boardNameOf cleans it; "Untitled" when nothing visible is left),
 * made if there is none. Cleaned here, where every board an import makes is made, whatever file
 * the name came from and whenever its items were read.
 */
async function boardNamed(ctx: ServiceContext, imp: ImportRow, text: string): Promise<number> {
  const name = boardNameOf(text) || 'Untitled';
  const existing = await ctx.db.selectFrom('boards').select('id').where('user_id', '=', imp.user_id).where('name', '=', name).orderBy('id').limit(1).executeTakeFirst();
  if (existing) return existing.id;
  const board = await createBoard(ctx, imp.user_id, name);
  await ctx.db
    .insertInto('import_boards')
    .values({ import_id: imp.id, board_id: board.id, board_updated_at: sql<Date>`(select updated_at from boards where id = ${board.id})` })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return board.id;
}

/** Adds `pinIds` (in board order: first on top) to the board, those already on it left where they are. */
async function fillBoard(ctx: ServiceContext, userId: number, boardId: number, pinIds: number[]): Promise<void> {
  const lastFirst = [...new Set(pinIds)].reverse();
  for (let start = 0; start < lastFirst.length; start += CHUNK) {
    const chunk = lastFirst.slice(start, start + CHUNK);
    await write(ctx, async (trx, record) => {
      const access = await boardAccess(trx, userId, boardId, { lock: true });
      // One statement, rows in order: the entries' ids (a board's order) follow the list.
      const inserted = await trx
        .insertInto('board_pins')
        .values(chunk.map((pinId) => ({ board_id: boardId, pin_id: pinId })))
        .onConflict((oc) => oc.constraint('board_pins_pkey').doNothing())
        .returning(['id', 'pin_id'])
        .execute();
      if (!inserted.length) return;
      inserted.sort((a, b) => a.id - b.id);
      const pins = await trx
        .selectFrom('pins')
        .select((eb) => ['id', 'title', 'image_url', 'visibility', imageOf(eb).as('image')])
        .where(
          'id',
          'in',
          inserted.map((row) => row.pin_id),
        )
        .execute();
      const byId = new Map(
        pins.map((row) => [row.id, { id: row.id, title: row.title, image_url: row.image_url, image: row.image && toPinImage(row.image), visibility: row.visibility } satisfies BoardPin]),
      );
      const { pin_count: finalCount } = await trx.selectFrom('boards').select('pin_count').where('id', '=', boardId).executeTakeFirstOrThrow();
      const memberIds = await memberIdsOf(trx, boardId, access.ownerId);
      for (const [index, row] of inserted.entries()) {
        const pin = byId.get(row.pin_id) as BoardPin;
        // The count as of this entry: the board's count once all of them are in, less those after it.
        const pinCount = finalCount - (inserted.length - 1 - index);
        record('board:pin-added', { boardId, pin, pinCount }, { userIds: memberIds });
      }
    });
  }
}

/** Item positions' pins, in file order: all of them, or by the key an export gave each. */
async function madePins(db: Kysely<DB>, importId: number) {
  return db
    .selectFrom('import_items')
    .select(['position', 'pin_id', sql<string[]>`data->'boards'`.as('boards'), sql<string | null>`data->>'ref'`.as('ref')])
    .where('import_id', '=', importId)
    .where('state', '=', 'done')
    .where('pin_id', 'is not', null)
    .orderBy('position')
    .execute();
}

export async function applyPlacements(ctx: ServiceContext, imp: ImportRow): Promise<void> {
  const made = await madePins(ctx.db, imp.id);
  if (imp.kind !== 'pinboard') {
    const boards = new Map<string, number[]>();
    for (const row of made) for (const name of row.boards ?? []) boards.set(name, [...(boards.get(name) ?? []), row.pin_id as number]);
    // Made last to first as well: the boards list shows the newest first, so the file's first board leads.
    const names = [...boards.keys()];
    const ids = new Map<string, number>();
    for (const name of [...names].reverse()) ids.set(name, await boardNamed(ctx, imp, name));
    for (const name of names) await fillBoard(ctx, imp.user_id, ids.get(name) as number, boards.get(name) as number[]);
    return;
  }
  const extra = ImportExtra.parse(imp.extra);
  const byRef = new Map(made.filter((row) => row.ref !== null).map((row) => [row.ref as string, row.pin_id as number]));
  const pinsOf = (keys: string[]) => keys.map((key) => byRef.get(key)).filter((id): id is number => id !== undefined);
  const ids: number[] = [];
  for (const board of [...extra.boards].reverse()) ids.unshift(await boardNamed(ctx, imp, board.name));
  for (const [index, board] of extra.boards.entries()) await fillBoard(ctx, imp.user_id, ids[index] as number, pinsOf(board.pins));
  for (const pinId of pinsOf(extra.favorites)) await addFavorite(ctx, imp.user_id, pinId);
  for (const comment of extra.comments) {
    const pinId = byRef.get(comment.pin);
    const text = clip(comment.text, LIMITS.comment);
    if (pinId === undefined || !text) continue;
    const at = Date.parse(comment.createdAt);
    try {
      await createComment(ctx, imp.user_id, pinId, text, Number.isNaN(at) ? undefined : new Date(at));
    } catch (error) {
      // One comment per author per pin: brought back once already (a retry ran this again).
      if (!(error instanceof HttpError && error.status === 409) && !isUniqueViolation(error)) throw error;
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
