import { nearPictures } from '../images/seen/near-pictures.ts';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { PageParams } from '../../contract/paging.ts';
import type { PinList } from '../../contract/pins.ts';
import type { DB, ImagePaletteEntry } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { CursorCodec } from '../paging/cursor.ts';
import { rankedKeyset } from '../paging/ranked.ts';
import { visibleTo } from '../visibility/pin-access.ts';
import { pinsInOrder } from '../pins/pins-in-order.ts';
import { largestPinId } from './search.service.ts';
import { approach, widen, withBitmapScans } from './window.ts';

// GET /api/pins/{id}/related (docs/search.md "More like this"). Candidates come from five signals,
// each a bounded index look-up, then are scored together (in JS: at most a few thousand rows):
//
// - shared tags: the newest PER_SOURCE pins of each of the pin's tags, each tag adding
//   1 / ln(2 + its pin count) (rarer tags say more);
// - shared boards the reader is on (owner or collaborator): the newest PER_SOURCE pins of up to
//   BOARDS of them, SHARED_BOARD each. A board the reader is not on is never looked at, so its
//   contents cannot leak; anonymous readers get none;
// - similar words: the newest PER_SIGNAL public pins whose search vector matches any word of the
//   pin's title (its stems, from its own vector), scored WORDS × ts_rank (title hits count most);
// - colours: the newest PER_SIGNAL public pins sharing a named colour, scored by how many they
//   share (Jaccard, NAMED_COLOURS) and how close the palettes are (PALETTE, by share, RGB distance
//   under CLOSE);
// - near-identical pictures: pictures at most PHASH_NEAR bits from the picture or its mirror image
//   (backend/images/seen/near-pictures.ts), LOOK_ALIKE × (1 − bits apart / 64), so a look-alike
//   ranks first.
//
// Words and colours are looked for as search looks for its candidates (./window.ts): the planner's
// estimate picks a walk of the primary key or bitmap scans over a window of the newest ids.
// When no signal finds anything the list falls back to the author's newest public pins, and for an
// author with no other, the newest public pins: never empty while there are other pins to show.
//
// Never the pin itself; never a pin the reader may not see: every signal but shared boards looks at
// public pins only (the discovery surfaces, the same for everyone), boards only at the reader's own,
// and the page is checked through visibleTo once more.
//
// The ids considered are those up to `top`, fixed at page one: every page ranks the same
// candidates, each comes exactly once; pins newer than page one wait for the next visit.

const PER_SOURCE = 100;
const BOARDS = 20;
const PER_SIGNAL = 200;
const SHARED_BOARD = 0.5;
const WORDS = 1;
const NAMED_COLOURS = 0.2;
const PALETTE = 0.3;
const LOOK_ALIKE = 10;
/** Title stems a look-up uses at most. */
const TITLE_WORDS = 12;
/** RGB distance beyond which two palette colours are not close at all. */
const CLOSE = 120;
const SCALE = 1_000_000;

interface Subject {
  id: number;
  user_id: number;
  colors: string[];
  title_words: string[] | null;
  palette: ImagePaletteEntry[] | null;
  phash: string | null;
  phash_mirror: string | null;
}

export async function relatedPins(db: Kysely<DB>, cursors: CursorCodec, pinId: number, viewerId: number | undefined, query: PageParams): Promise<PinList> {
  // A private pin is 404 to whoever may not see it (docs/who-sees-what.md).
  const { rows: subjects } = await sql<Subject>`
    select pins.id, pins.user_id, pins.colors, i.palette, i.phash, i.phash_mirror,
      (select array_agg(w.lexeme) from (select u.lexeme from unnest(pins.search) as u where 'A' = any (u.weights) limit ${TITLE_WORDS}) as w) as title_words
    from pins
    left join lateral (select images.palette, images.phash, images.phash_mirror from images where images.sha256 = pins.image_sha256) as i on true
    where pins.id = ${pinId} and ${visibleTo(viewerId)}`.execute(db);
  const pin = subjects[0];
  if (!pin) throw notFound('Pin');
  // A reader's cursor is theirs: the boards behind it are theirs.
  const page = rankedKeyset(cursors, `related:${pinId}:${viewerId ?? 0}`, query);
  const after = page.after;
  const top = after?.top ?? (await largestPinId(db));

  const words = pin.title_words?.length ? anyOf(pin.title_words) : undefined;
  const [shared, similar, colours, lookAlikes] = await Promise.all([
    sharedTagsAndBoards(db, pinId, viewerId, top),
    words === undefined
      ? []
      : newestMatches<{ id: number; rank: number }>(
          db,
          top,
          sql`p.search @@ ${words}::tsquery and p.visibility = 'public' and p.id <> ${pinId}`,
          sql`p.id, ts_rank(p.search, ${words}::tsquery)::float8 as rank`,
        ),
    pin.colors.length === 0
      ? []
      : newestMatches<{ id: number; colors: string[]; palette: ImagePaletteEntry[] | null }>(
          db,
          top,
          sql`p.colors && ${pin.colors}::text[] and p.visibility = 'public' and p.id <> ${pinId}`,
          sql`p.id, p.colors, (select i.palette from images i where i.sha256 = p.image_sha256) as palette`,
        ),
    nearIdenticalPictures(db, pin, top),
  ]);

  const scores = new Map<number, number>();
  const add = (id: number, score: number) => scores.set(id, (scores.get(id) ?? 0) + score);
  for (const row of shared) add(row.id, row.score);
  for (const row of similar) add(row.id, WORDS * Math.min(row.rank, 1));
  for (const row of lookAlikes) add(row.id, LOOK_ALIKE * (1 - row.distance / 64));
  for (const row of colours) add(row.id, colourCloseness(pin, row));
  scores.delete(pinId);
  let ranked = [...scores].map(([id, score]) => ({ id, score: Math.round(score * SCALE) }));
  if (ranked.length === 0) ranked = await fallback(db, pin, top);

  ranked.sort((a, b) => b.score - a.score || b.id - a.id);
  const rows = (after ? ranked.filter((row) => row.score < after.score || (row.score === after.score && row.id < after.id)) : ranked).slice(0, page.limit + 1);
  const { items, nextCursor } = page.finish(rows, { from: 0, top });
  return {
    pins: await pinsInOrder(
      db,
      await seenBy(
        db,
        items.map((row) => row.id),
        viewerId,
      ),
    ),
    nextCursor,
  };
}

/**
 * A tsquery (its text form, reaching Postgres as one bound value) matching any of these stems:
 * each quoted as tsquery input quotes a lexeme, so no stem is read as an operator.
 */
function anyOf(stems: readonly string[]): string {
  return stems.map((stem) => `'${stem.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`).join(' | ');
}

/** Shared tags (the rarer the more) and, for a signed-in reader, shared boards they are on. */
async function sharedTagsAndBoards(db: Kysely<DB>, pinId: number, viewerId: number | undefined, top: number): Promise<Array<{ id: number; score: number }>> {
  const boards =
    viewerId === undefined
      ? sql``
      : sql`
        union all
        select candidate.pin_id, ${SHARED_BOARD}::float8 as weight
        from (
          select bp.board_id from board_pins bp join boards b on b.id = bp.board_id
          where bp.pin_id = ${pinId}
            and (b.user_id = ${viewerId} or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = ${viewerId}))
          limit ${BOARDS}
        ) as shared
        cross join lateral (
          select x.pin_id from board_pins x where x.board_id = shared.board_id and x.pin_id <> ${pinId} and x.pin_id <= ${top}
          order by x.id desc limit ${PER_SOURCE}
        ) as candidate`;
  const { rows } = await sql<{ id: number; score: number }>`
    select candidates.pin_id as id, sum(candidates.weight)::float8 as score
    from (
      select candidate.pin_id, 1 / ln(2 + t.pin_count)::float8 as weight
      from pin_tags mine
      join tags t on t.tag = mine.tag
      cross join lateral (
        select other.pin_id from pin_tags other where other.tag = mine.tag and other.pin_id <> ${pinId} and other.pin_id <= ${top}
        order by other.pin_id desc limit ${PER_SOURCE}
      ) as candidate
      where mine.pin_id = ${pinId}
      ${boards}
    ) as candidates
    group by candidates.pin_id`.execute(db);
  return rows;
}

/**
 * The newest PER_SIGNAL pins up to `top` matching `match`, as `columns` (both written against `p`):
 * looked for as search looks for its candidates (./window.ts), so a common word or colour walks the
 * newest ids and a rare one reads only its matches.
 */
async function newestMatches<T>(db: Kysely<DB>, top: number, match: RawBuilder<boolean>, columns: RawBuilder<unknown>): Promise<T[]> {
  const { walk, from: start } = await approach(db, match, top, PER_SIGNAL, null);
  const look = async (from: number, walking: boolean) => {
    const run = async (trx: Kysely<DB>) =>
      (
        await sql<T>`
          select ${columns} from (
            select p.id, p.search, p.colors, p.image_sha256 from pins p where ${match} and p.id > ${from} and p.id <= ${top}
            order by p.id desc limit ${PER_SIGNAL}
          ) as p`.execute(trx)
      ).rows;
    return walking ? run(db) : withBitmapScans(db, run);
  };
  let from = start;
  let rows = await look(from, walk);
  // The walk or window held fewer than wanted: look again in a wider window, with bitmap scans (the
  // candidates are then the same newest PER_SIGNAL matches however they were found, so every page
  // ranks the same ones).
  while (from > 0 && rows.length < PER_SIGNAL) {
    from = widen(from, top, rows.length, PER_SIGNAL);
    rows = await look(from, false);
  }
  return rows;
}

/**
 * Pins whose picture is the pin's, or nearly (re-encoded, resized, mirrored): the closest
 * PER_SIGNAL pictures (backend/images/seen/near-pictures.ts), then each one's public pins by index.
 */
async function nearIdenticalPictures(db: Kysely<DB>, pin: Subject, top: number): Promise<Array<{ id: number; distance: number }>> {
  if (pin.phash === null) return [];
  const near = await nearPictures(db, { phash: pin.phash, phash_mirror: pin.phash_mirror }, PER_SIGNAL);
  if (near.length === 0) return [];
  const { rows } = await sql<{ id: number; distance: number }>`
    select p.id, near.distance
    from jsonb_to_recordset(${JSON.stringify(near)}::jsonb) as near (sha256 text, distance int)
    cross join lateral (
      select p.id from pins p
      where p.image_sha256 = near.sha256 and p.id <> ${pin.id} and p.id <= ${top} and p.visibility = 'public'
      order by p.id desc limit ${PER_SIGNAL}
    ) as p
    order by near.distance, p.id desc
    limit ${PER_SIGNAL}`.execute(db);
  return rows;
}

/**
 * These ids less any the reader may not see. Every signal looks only at what they may see (public
 * pins, their own boards), so this takes nothing away unless a pin changed meanwhile; it is the
 * rule said once more where the page is made.
 */
async function seenBy(db: Kysely<DB>, ids: number[], viewerId: number | undefined): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: number }>`select pins.id from pins where pins.id = any (${ids}::int[]) and ${visibleTo(viewerId)}`.execute(db);
  const seen = new Set(rows.map((row) => row.id));
  return ids.filter((id) => seen.has(id));
}

/** How alike two pictures' colours are: named colours shared (Jaccard) and palettes close. */
function colourCloseness(pin: Subject, other: { colors: string[]; palette: ImagePaletteEntry[] | null }): number {
  const union = new Set([...pin.colors, ...other.colors]).size;
  const named = union === 0 ? 0 : pin.colors.filter((name) => other.colors.includes(name)).length / union;
  const close = pin.palette && other.palette ? (paletteCloseness(pin.palette, other.palette) + paletteCloseness(other.palette, pin.palette)) / 2 : 0;
  return NAMED_COLOURS * named + PALETTE * close;
}

/** 0..1: how much of `a` (by share) has a close colour in `b`. */
function paletteCloseness(a: readonly ImagePaletteEntry[], b: readonly ImagePaletteEntry[]): number {
  const theirs = b.flatMap((entry) => {
    const rgb = rgbOf(entry.hex);
    return rgb ? [rgb] : [];
  });
  let total = 0;
  let near = 0;
  for (const entry of a) {
    const rgb = rgbOf(entry.hex);
    if (!rgb || !(entry.share > 0)) continue;
    total += entry.share;
    const nearest = Math.min(...theirs.map((other) => Math.hypot(rgb[0] - other[0], rgb[1] - other[1], rgb[2] - other[2])));
    near += entry.share * Math.max(0, 1 - nearest / CLOSE);
  }
  return total > 0 ? near / total : 0;
}

function rgbOf(hex: string): [number, number, number] | undefined {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return match ? [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)] : undefined;
}

/**
 * Nothing alike: the author's newest public pins (score 1), or for an author with no other, the
 * newest public pins (score 0). Both index ranges of PER_SIGNAL rows.
 */
async function fallback(db: Kysely<DB>, pin: Subject, top: number): Promise<Array<{ id: number; score: number }>> {
  const byAuthor = await db
    .selectFrom('pins')
    .select('pins.id')
    .where('pins.user_id', '=', pin.user_id)
    .where('pins.visibility', '=', 'public')
    .where('pins.id', '<>', pin.id)
    .where('pins.id', '<=', top)
    .orderBy('pins.id', 'desc')
    .limit(PER_SIGNAL)
    .execute();
  if (byAuthor.length) return byAuthor.map((row) => ({ id: row.id, score: 1 }));
  const newest = await db
    .selectFrom('pins')
    .select('pins.id')
    .where('pins.visibility', '=', 'public')
    .where('pins.id', '<>', pin.id)
    .where('pins.id', '<=', top)
    .orderBy('pins.id', 'desc')
    .limit(PER_SIGNAL)
    .execute();
  return newest.map((row) => ({ id: row.id, score: 0 }));
}
