import pg from 'pg';
import type { PinList } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../../scripts/lib/client.ts';

// What the scenarios pick from, gathered once before the load starts: the hot pins (by SQL), the
// cursors of deeper pages (walked through the API, as a client gets them) and the signed-in
// visitors (signed up through the API: the seeded accounts have no usable password).

export interface Fixture {
  pins: number;
  /** The newest pins: what visitors of a feed mostly open. */
  hotIds: number[];
  /** Hot pins that have comments. */
  commentedIds: number[];
  /** Cursors of the newest order's pages 2 … deepPages + 1. */
  deepCursors: string[];
  /** Signed-in clients (cookies: session, anonymous id, XSRF token). */
  users: ApiClient[];
}

export interface FixtureOptions {
  hot: number;
  deepPages: number;
  users: number;
  pageSize: number;
}

export async function prepareFixture(databaseUrl: string, urls: string[], options: FixtureOptions): Promise<Fixture> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let pins: number;
  let hotIds: number[];
  let commentedIds: number[];
  try {
    pins = Number((await db.query<{ n: string }>('select count(*) as n from pins')).rows[0]?.n ?? 0);
    hotIds = (await db.query<{ id: number }>('select id from pins order by id desc limit $1', [options.hot])).rows.map((row) => row.id);
    commentedIds = (await db.query<{ pin_id: number }>('select distinct pin_id from comments where pin_id = any($1::int[])', [hotIds])).rows.map((row) => row.pin_id);
  } finally {
    await db.end();
  }
  if (hotIds.length === 0 || commentedIds.length === 0) throw new Error('the seed has no pins, or no comments on the newest pins');

  const walker = new ApiClient(urls[0] as string);
  const deepCursors: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < options.deepPages; page++) {
    const answer: { status: number; body: PinList } = await walker.get<PinList>(`/api/pins/?limit=${options.pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (answer.status !== 200) throw new Error(`walking the newest pages: ${answer.status} ${JSON.stringify(answer.body)}`);
    cursor = answer.body.nextCursor;
    if (cursor === null) break;
    deepCursors.push(cursor);
  }

  // A few at a time: sign-up hashes a password (argon2), which the instances bound per process.
  const users: ApiClient[] = [];
  for (let i = 0; i < options.users; i += 4) {
    const batch = Array.from({ length: Math.min(4, options.users - i) }, (_, j) => signUpUser(urls[(i + j) % urls.length] as string, 'bench'));
    for (const { client } of await Promise.all(batch)) users.push(client);
  }
  return { pins, hotIds, commentedIds, deepCursors, users };
}

/** Ends the visitors' sessions, so no session of the run stays in Redis. */
export async function signOut(users: ApiClient[]): Promise<void> {
  await Promise.all(users.map((client) => client.get('/api/auth/logout')));
}
