import { type Kysely, sql } from 'kysely';
import type { ImageFormat, DB } from '../../db/schema.ts';
import { EXTENSIONS } from '../images/media-urls.ts';
import type { PinVisibilityValue } from '../../contract/visibility.ts';

// What an export holds, read a page at a time (docs/import-export.md): the user's own pins, their
// own boards (only their own pins listed in them), their favorites of their own pins and their own
// comments on them. Every read is a keyset page from an index, so an export of any size holds one
// page in memory at a time.

const PAGE = 500;

export interface ExportPinRow {
  id: number;
  title: string;
  description: string;
  tags: string[];
  source_url: string | null;
  created_at: Date;
  image_url: string;
  image_sha256: string | null;
  format: ImageFormat | null;
  visibility: PinVisibilityValue;
}

/**
 * A pin's columns as the export writes them: the image address its owner gave, even one the server
 * refused (kept apart, never served, but theirs: an import of the export gives it back), and who
 * sees it by its owner's choice (one waiting for its picture is public once it has one).
 */
const pinColumns = [
  'pins.id',
  'pins.title',
  'pins.description',
  'pins.tags',
  'pins.source_url',
  'pins.created_at',
  sql<string>`coalesce(nullif(pins.image_url, ''), pins.refused_image_url, '')`.as('image_url'),
  'pins.image_sha256',
  'images.format',
  sql<PinVisibilityValue>`case when pins.waits_for_picture then 'public' else pins.visibility end`.as('visibility'),
] as const;

/** The key a pin has in the export's files: stable within one file. */
export const pinKey = (id: number) => `p${id}`;

/** Where a stored original goes in the ZIP. */
export const imagePath = (sha256: string, format: ImageFormat) => `images/${sha256}.${EXTENSIONS[format]}`;

/** The user's pins, oldest first. */
export async function* pinsOf(db: Kysely<DB>, userId: number): AsyncGenerator<ExportPinRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('pins')
      .leftJoin('images', 'images.sha256', 'pins.image_sha256')
      .select(pinColumns)
      .where('pins.user_id', '=', userId)
      .where('pins.id', '>', after)
      .orderBy('pins.id')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows;
    after = (rows.at(-1) as ExportPinRow).id;
  }
}

/** The stored originals the user's pins show, each once. */
export async function* imagesOf(db: Kysely<DB>, userId: number): AsyncGenerator<Array<{ sha256: string; format: ImageFormat }>> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('images')
      .select(['sha256', 'format'])
      .where('sha256', '>', after)
      .where('sha256', 'in', (eb) => eb.selectFrom('pins').select('image_sha256').where('user_id', '=', userId).where('image_sha256', 'is not', null).$narrowType<{ image_sha256: string }>())
      .orderBy('sha256')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows;
    after = (rows.at(-1) as { sha256: string }).sha256;
  }
}

export interface ExportBoardRow {
  id: number;
  name: string;
  members: string[];
}

/** The user's own boards, newest first (the boards list's order), with their collaborators. */
export async function* boardsOf(db: Kysely<DB>, userId: number): AsyncGenerator<ExportBoardRow[]> {
  let before = 2_147_483_647;
  for (;;) {
    const rows = await db
      .selectFrom('boards')
      .select((eb) => [
        'boards.id',
        'boards.name',
        sql<string[]>`coalesce((select array_agg(u.username order by bm.added_at, u.id) from board_members bm join users u on u.id = bm.user_id where bm.board_id = ${eb.ref('boards.id')}), '{}')`.as(
          'members',
        ),
      ])
      .where('boards.user_id', '=', userId)
      .where('boards.id', '<', before)
      .orderBy('boards.id', 'desc')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows;
    before = (rows.at(-1) as ExportBoardRow).id;
  }
}

/** A board's pins that are the user's own, in board order (most recently added first). */
export async function* boardPinsOf(db: Kysely<DB>, userId: number, boardId: number): AsyncGenerator<ExportPinRow[]> {
  let before = 2_147_483_647;
  for (;;) {
    const rows = await db
      .selectFrom('board_pins')
      .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
      .leftJoin('images', 'images.sha256', 'pins.image_sha256')
      .select(['board_pins.id as entry', 'pins.user_id', ...pinColumns])
      .where('board_pins.board_id', '=', boardId)
      .where('board_pins.id', '<', before)
      .orderBy('board_pins.id', 'desc')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows.filter((row) => row.user_id === userId);
    before = (rows.at(-1) as { entry: number }).entry;
  }
}

/** The user's favorites of their own pins, oldest first. */
export async function* favoritesOf(db: Kysely<DB>, userId: number): AsyncGenerator<number[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('favorites')
      .innerJoin('pins', 'pins.id', 'favorites.pin_id')
      .select(['favorites.id', 'favorites.pin_id'])
      .where('favorites.user_id', '=', userId)
      .where('pins.user_id', '=', userId)
      .where('favorites.id', '>', after)
      .orderBy('favorites.id')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows.map((row) => row.pin_id);
    after = (rows.at(-1) as { id: number }).id;
  }
}

/** The user's own comments on their own pins (one per pin at most), by pin: the (user, pin) unique index's order. */
export async function* commentsOf(db: Kysely<DB>, userId: number): AsyncGenerator<Array<{ pin_id: number; text: string; created_at: Date }>> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('comments')
      .innerJoin('pins', 'pins.id', 'comments.pin_id')
      .select(['comments.pin_id', 'comments.text', 'comments.created_at'])
      .where('comments.user_id', '=', userId)
      .where('pins.user_id', '=', userId)
      .where('comments.pin_id', '>', after)
      .orderBy('comments.pin_id')
      .limit(PAGE)
      .execute();
    if (!rows.length) return;
    yield rows;
    after = (rows.at(-1) as { pin_id: number }).pin_id;
  }
}
