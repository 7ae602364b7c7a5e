import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { CSV_COLUMNS } from '../../contract/import-rules.ts';
import { EXPORT_VERSION, type ExportedPin } from '../../contract/pinboard-export.ts';
import type { DB } from '../../db/schema.ts';
import { csvCellOut } from './csv-cells.ts';
import { boardPinsOf, boardsOf, commentsOf, type ExportPinRow, favoritesOf, imagePath, pinKey, pinsOf } from './export-reader.ts';

// The text files of an export (docs/import-export.md), each written as a stream of chunks read a
// page at a time: pinboard.json (the whole account, read back by an import), bookmarks.html (a
// Netscape bookmark file in Pinback's shape, one <H3> per board) and pins.csv.

function exportedPin(row: ExportPinRow): ExportedPin {
  return {
    key: pinKey(row.id),
    title: row.title,
    description: row.description,
    // The pin's own tags, as the server parsed them from its description when it was written.
    tags: row.tags,
    sourceUrl: row.source_url,
    createdAt: row.created_at.toISOString(),
    image: row.image_sha256 && row.format ? imagePath(row.image_sha256, row.format) : null,
    imageUrl: row.image_url,
    visibility: row.visibility,
  };
}

/** pinboard.json, a piece at a time: never the whole document in memory. */
export async function* pinboardJson(db: Kysely<DB>, user: { id: number; username: string; email: string }): AsyncGenerator<string> {
  yield `{"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(new Date().toISOString())},"user":${JSON.stringify({ username: user.username, email: user.email })},"pins":[`;
  let first = true;
  for await (const page of pinsOf(db, user.id)) {
    yield (first ? '\n' : ',\n') + page.map((row) => JSON.stringify(exportedPin(row))).join(',\n');
    first = false;
  }
  yield '\n],"boards":[';
  first = true;
  for await (const page of boardsOf(db, user.id)) {
    for (const board of page) {
      yield `${first ? '\n' : ',\n'}{"name":${JSON.stringify(board.name)},"members":${JSON.stringify(board.members)},"pins":[`;
      first = false;
      let firstPin = true;
      for await (const pins of boardPinsOf(db, user.id, board.id)) {
        if (!pins.length) continue;
        yield (firstPin ? '' : ',') + pins.map((pin) => JSON.stringify(pinKey(pin.id))).join(',');
        firstPin = false;
      }
      yield ']}';
    }
  }
  yield '\n],"favorites":[';
  first = true;
  for await (const page of favoritesOf(db, user.id)) {
    yield (first ? '' : ',') + page.map((id) => JSON.stringify(pinKey(id))).join(',');
    first = false;
  }
  yield '],"comments":[';
  first = true;
  for await (const page of commentsOf(db, user.id)) {
    yield (first ? '\n' : ',\n') + page.map((c) => JSON.stringify({ pin: pinKey(c.pin_id), text: c.text, createdAt: c.created_at.toISOString() })).join(',\n');
    first = false;
  }
  yield '\n]}\n';
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function bookmark(row: ExportPinRow, origin: string): string {
  const image = row.image_url ? new URL(row.image_url, origin).href : '';
  const attributes = [
    `HREF="${escapeHtml(row.source_url ?? `${origin}/pins/${row.id}`)}"`,
    `ADD_DATE="${Math.floor(row.created_at.getTime() / 1000)}"`,
    `ORIGLINK="${escapeHtml(`${origin}/pins/${row.id}`)}"`,
    image ? `IMAGE="${escapeHtml(image)}"` : '',
  ].filter(Boolean);
  const description = row.description ? `\n<DD>${escapeHtml(row.description)}` : '';
  return `<DT><A ${attributes.join(' ')}>${escapeHtml(row.title)}</A>${description}\n`;
}

/** The user's own boards each pin of a page is on, the one it was last added to last. */
async function boardsOfPins(db: Kysely<DB>, userId: number, pinIds: number[]): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('board_pins')
    .innerJoin('boards', 'boards.id', 'board_pins.board_id')
    .select(['board_pins.pin_id', 'boards.name'])
    .where('board_pins.pin_id', 'in', pinIds)
    .where('boards.user_id', '=', userId)
    .orderBy('board_pins.id')
    .execute();
  return new Map(rows.map((row) => [row.pin_id, row.name]));
}

/** bookmarks.html: one <H3> per board with its own pins in board order, then the pins on no board. */
export async function* bookmarksHtml(db: Kysely<DB>, userId: number, origin: string): AsyncGenerator<string> {
  yield '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n<TITLE>Pinboard</TITLE>\n<H1>Pinboard</H1>\n<DL><p>\n';
  for await (const page of boardsOf(db, userId)) {
    for (const board of page) {
      yield `<DT><H3>${escapeHtml(board.name)}</H3>\n<DL><p>\n`;
      for await (const pins of boardPinsOf(db, userId, board.id)) yield pins.map((pin) => bookmark(pin, origin)).join('');
      yield '</DL><p>\n';
    }
  }
  for await (const page of pinsOf(db, userId)) {
    const onBoards = await boardsOfPins(
      db,
      userId,
      page.map((pin) => pin.id),
    );
    yield page
      .filter((pin) => !onBoards.has(pin.id))
      .map((pin) => bookmark(pin, origin))
      .join('');
  }
  yield '</DL><p>\n';
}

/**
 * pins.csv: `file,title,description,source,board` (the board: the one the pin was last added to),
 * every cell through csvCellOut, as a spreadsheet will open it.
 */
export async function* pinsCsv(db: Kysely<DB>, userId: number): AsyncGenerator<string> {
  yield stringify([[...CSV_COLUMNS]]);
  for await (const page of pinsOf(db, userId)) {
    const boardOf = await boardsOfPins(
      db,
      userId,
      page.map((pin) => pin.id),
    );
    const rows = page.map((pin) => [pin.image_sha256 && pin.format ? imagePath(pin.image_sha256, pin.format) : '', pin.title, pin.description, pin.source_url ?? '', boardOf.get(pin.id) ?? '']);
    yield stringify(rows.map((row) => row.map(csvCellOut)));
  }
}
