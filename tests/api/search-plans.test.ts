// How a search looks for its candidates (backend/search/window.ts, docs/search.md "Ranking"): from
// how common its words are (the statistics ANALYZE keeps, backend/search/frequency.ts), a common
// word walks the newest pins until enough match and a rare one reads its matches from the GIN
// index. Either way the results are the same pins in the same order, page after page; each plan is
// checked against the other, forced.
import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { PinList } from '../../contract/pins.ts';
import type { DB } from '../../db/schema.ts';
import { createCursorCodec } from '../../backend/paging/cursor.ts';
import { forgetLexemeShares } from '../../backend/search/frequency.ts';
import { CANDIDATES, type SearchPlan, searchPins } from '../../backend/search/search.service.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();
const cursors = createCursorCodec('search plans test secret');
const PINS = 3_000;

let db: Kysely<DB>;
beforeAll(async () => {
  db = server.server.database.db;
  const { user } = await signUpUser(server.url, 'planner');
  // One pin in three a heron (a third of the pins: walked), ten bitterns (read from the index).
  await sql`
    insert into pins (user_id, title, image_url, description)
    select ${user.id},
      case when n % 300 = 1 then 'Bittern ' || n when n % 3 = 0 then 'Heron ' || n else 'Reed bed ' || n end,
      'https://example.com/plans.png',
      case when n % 7 = 0 then 'a heron nearby' else '' end
    from generate_series(1, ${PINS}::int) as n`.execute(db);
  await sql`analyze pins`.execute(db);
  forgetLexemeShares(db);
});

/** Every page of a search, walked by its cursors, and the plan page one took. */
async function walk(q: string, plan?: SearchPlan): Promise<{ ids: number[]; plan: SearchPlan | undefined }> {
  const ids: number[] = [];
  let chosen: SearchPlan | undefined;
  let cursor: string | undefined;
  do {
    const page = await searchPins(db, cursors, { q, limit: 40, ...(cursor ? { cursor } : {}) }, undefined, { plan, onPlan: (p) => (chosen ??= p) });
    ids.push(...page.pins.map((pin) => pin.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { ids, plan: chosen };
}

describe('the plan follows how common the words are; the results do not', () => {
  test('a common word walks the newest pins; the GIN index finds the same pins in the same order', async () => {
    const walked = await walk('heron');
    expect(walked.plan).toBe('walk');
    expect(walked.ids).toHaveLength(CANDIDATES);
    const indexed = await walk('heron', 'index');
    expect(indexed.plan).toBe('index');
    expect(walked.ids).toEqual(indexed.ids);
    // The newest CANDIDATES matches, whichever way.
    const { rows } = await sql<{ id: number }>`
      select id from pins where title like 'Heron %' or description like '%heron%' order by id desc limit ${CANDIDATES}`.execute(db);
    expect([...walked.ids].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id).sort((a, b) => a - b));
  });

  test('a rare word reads its matches from the index; a walk finds the same', async () => {
    const indexed = await walk('bittern');
    expect(indexed.plan).toBe('index');
    expect(indexed.ids).toHaveLength(PINS / 300);
    expect((await walk('bittern', 'walk')).ids).toEqual(indexed.ids);
  });

  test('two words, a misspelt word and a repeated word: the same results either way', async () => {
    for (const q of ['bittern heron', 'reed heron', 'herno', 'heron heron', 'reed -heron']) {
      const chosen = await walk(q);
      const other = await walk(q, chosen.plan === 'walk' ? 'index' : 'walk');
      expect(other.ids, q).toEqual(chosen.ids);
      expect(chosen.ids.length, q).toBeGreaterThan(0);
    }
    // A repeated word is one condition: as common as the word, so walked.
    expect((await walk('heron heron')).plan).toBe('walk');
  });

  test('the API answers what the service does', async () => {
    const res = await new ApiClient(server.url).get<PinList>('/api/search?q=heron&limit=40');
    expect(res.status).toBe(200);
    expect(res.body.pins.map((pin) => pin.id)).toEqual((await walk('heron')).ids.slice(0, 40));
  });
});

// Last: it adds pins. A prefix of a common word cannot skip through the index as the word does
// (backend/search/expand.ts): a complete last word whose words are common is not also a prefix.
describe('the last word as a prefix, from how common the words it begins are', () => {
  test('a common complete word is only itself; a rare one and a half-typed one are prefixes too', async () => {
    const { client } = await signUpUser(server.url, 'prefixes');
    const make = async (title: string) => (await client.post<{ id: number }>('/api/pins/', { title, imageUrl: 'https://example.com/plans.png' })).body.id;
    const heronry = await make('Heronry by the lake');
    const hide = await make('Bitternhide at dawn');
    const found = async (q: string) => (await walk(q)).ids;
    // "heron" is in a third of the pins: the heronry is not among its matches, but "heronr"
    // (half-typed) still finds it (first: the look-alike "heron" brings the herons after it).
    expect(await found('heron')).not.toContain(heronry);
    expect((await found('heronr'))[0]).toBe(heronry);
    // "bittern" is in ten pins: still a prefix too.
    expect(await found('bittern')).toContain(hide);
    expect(await found('bittern')).toHaveLength(PINS / 300 + 1);
  });
});
