import { type Kysely, Migrator, type RawBuilder, sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import { parseTags } from '../../contract/tags.ts';
import type { UserProfile } from '../../contract/users.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrationProvider } from '../../db/migrations/index.ts';
import * as statementCounts from '../../db/migrations/20261129_0027_statement_counts.ts';
import type { DB } from '../../db/schema.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { createTestDatabase } from '../support/database.ts';
import { DRAWING_URL } from '../support/demo.ts';
import { testDatabaseKind } from '../support/server.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Migration 0027 (docs/data-model.md, "Counters are kept per statement"): the counts and the tables
// derived from public pins are kept by statement triggers. Whatever raw SQL does — statements of many
// rows, in both directions, cascades, moves, a transaction rolled back to a savepoint, concurrent
// writers — every counter equals a recount of its rows; the per-row triggers it replaced (put back by
// its down) give the same rows on the same statements; and the API keeps a profile's count.

const MIGRATION = '20261129_0027_statement_counts';
const BEFORE = '20261129_0026_accounts';

type Db = Kysely<DB>;

async function openMigrated(options: { oldTriggers?: boolean } = {}): Promise<{ db: Db; close(): Promise<void> }> {
  const created = testDatabaseKind() === 'postgres' ? await createTestDatabase() : undefined;
  const database = await openDatabase(created ? { kind: 'postgres', url: created.url } : { kind: 'pglite', dir: ':memory:' }, { statementTimeoutMs: 60_000 });
  await migrateToLatest(database.db);
  // The per-row triggers as they were before 0027, on the same schema.
  if (options.oldTriggers) await statementCounts.down(database.db);
  return {
    db: database.db,
    close: async () => {
      await database.close();
      await created?.drop();
    },
  };
}

interface Drift {
  what: string;
  key: string;
  stored: number;
  counted: number;
}

/** Every counter that differs from a recount of its rows, and every derived row missing or extra. */
async function drift(db: Db, options: { derived?: boolean } = {}): Promise<Drift[]> {
  const { rows: counters } = await sql<Drift>`
    select 'users.pin_count' as what, u.id::text as key, u.pin_count as stored, coalesce(c.n, 0) as counted
    from users u left join (select user_id, count(*)::int as n from pins where visibility = 'public' group by user_id) c on c.user_id = u.id
    where u.pin_count <> coalesce(c.n, 0)
    union all
    select 'users.private_pin_count', u.id::text, u.private_pin_count, coalesce(c.n, 0)
    from users u left join (select user_id, count(*)::int as n from pins where visibility = 'private' group by user_id) c on c.user_id = u.id
    where u.private_pin_count <> coalesce(c.n, 0)
    union all
    select 'boards.pin_count', b.id::text, b.pin_count, coalesce(c.n, 0)
    from boards b left join (select board_id, count(*)::int as n from board_pins group by board_id) c on c.board_id = b.id
    where b.pin_count <> coalesce(c.n, 0)
    union all
    select 'boards.public_pin_count', b.id::text, b.public_pin_count, coalesce(c.n, 0)
    from boards b left join (
      select bp.board_id, count(*)::int as n from board_pins bp join pins p on p.id = bp.pin_id where p.visibility = 'public' group by bp.board_id
    ) c on c.board_id = b.id
    where b.public_pin_count <> coalesce(c.n, 0)
    union all
    select 'pins.likes_count', p.id::text, (p.likes_count + coalesce((select sum(d.delta) from pin_like_deltas d where d.pin_id = p.id), 0))::int, coalesce(c.n, 0)
    from pins p left join (select pin_id, count(*)::int as n from favorites group by pin_id) c on c.pin_id = p.id
    where (p.likes_count + coalesce((select sum(d.delta) from pin_like_deltas d where d.pin_id = p.id), 0))::int <> coalesce(c.n, 0)
    union all
    select 'tags.pin_count', t.tag, (t.pin_count + coalesce((select sum(d.delta) from tag_count_deltas d where d.tag = t.tag), 0))::int, coalesce(c.n, 0)
    from tags t left join (select tag, count(*)::int as n from pin_tags group by tag) c on c.tag = t.tag
    where (t.pin_count + coalesce((select sum(d.delta) from tag_count_deltas d where d.tag = t.tag), 0))::int <> coalesce(c.n, 0)
    union all
    select 'tags (no row)', c.tag, 0, c.n
    from (select tag, count(*)::int as n from pin_tags group by tag) c
    where not exists (select from tags t where t.tag = c.tag)`.execute(db);
  if (options.derived === false) return counters;
  // pin_tags holds the distinct tags of every public pin, and nothing else; search_words holds
  // (at least: words only grow) every word of every public pin's title and description.
  const { rows: derived } = await sql<Drift>`
    with expected as (select distinct t as tag, p.id as pin_id from pins p, unnest(p.tags) as t where p.visibility = 'public')
    select 'pin_tags (missing)' as what, x.tag || ' ' || x.pin_id as key, 0 as stored, 1 as counted
    from (select tag, pin_id from expected except select tag, pin_id from pin_tags) x
    union all
    select 'pin_tags (extra)', x.tag || ' ' || x.pin_id, 1, 0
    from (select tag, pin_id from pin_tags except select tag, pin_id from expected) x
    union all
    select 'search_words (missing)', x.word, 0, 1
    from (
      select w.lexeme as word from pins p, unnest(to_tsvector('simple'::regconfig, p.title || ' ' || p.description)) as w
      where p.visibility = 'public' and length(w.lexeme) between 3 and 40 and w.lexeme !~ '[[:space:][:punct:]]'
      except select word from search_words
    ) x`.execute(db);
  return [...counters, ...derived];
}

/** Sums of the counters, so that a test sees it counted something. */
async function totals(db: Db): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, number>>`
    select (select coalesce(sum(pin_count), 0)::int from users) as public_pins,
      (select coalesce(sum(private_pin_count), 0)::int from users) as private_pins,
      (select coalesce(sum(pin_count), 0)::int from boards) as entries,
      (select coalesce(sum(public_pin_count), 0)::int from boards) as public_entries,
      (select coalesce(sum(likes_count), 0)::int + (select coalesce(sum(delta), 0)::int from pin_like_deltas) from pins) as likes,
      (select coalesce(sum(pin_count), 0)::int + (select coalesce(sum(delta), 0)::int from tag_count_deltas) from tags) as tagged`.execute(db);
  return rows[0] ?? {};
}

/** Every counter and derived row, to compare two databases. */
async function snapshot(db: Db): Promise<unknown> {
  const { rows } = await sql<{ snapshot: unknown }>`
    select json_build_object(
      'users', (select json_agg(json_build_array(id, pin_count, private_pin_count) order by id) from users),
      'boards', (select json_agg(json_build_array(id, pin_count, public_pin_count) order by id) from boards),
      'pins', (select json_agg(json_build_array(id, user_id, visibility, likes_count) order by id) from pins),
      'tags', (select json_agg(json_build_array(tag, pin_count) order by tag) from tags),
      'pin_tags', (select json_agg(json_build_array(tag, pin_id) order by tag, pin_id) from pin_tags),
      'search_words', (select json_agg(word order by word) from search_words)
    ) as snapshot`.execute(db);
  return rows[0]?.snapshot;
}

const TEXTS = [
  'Sunset at the #beach and the #sea',
  '#Sun over the #beach, warm evening',
  'A quiet morning in the garden',
  '#café #sea #SEA by the harbour',
  'Mountains #hiking #sun and snow',
  '',
  'Rainy #city streets at night #noir',
];

/**
 * `count` pins of the named users in turn, every third private, with the #tags of their descriptions,
 * inserted in the order of `n`: the ids two databases give them must not depend on how each plans the join.
 */
function pinsOf(usernames: string[], count: number, offset = 0): RawBuilder<unknown> {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    const description = TEXTS[n % TEXTS.length] ?? '';
    return {
      n,
      username: usernames[n % usernames.length],
      title: `Pin number ${n} of the batch`,
      image_url: `https://a.test/${n}.png`,
      description,
      tags: parseTags(description),
      visibility: n % 3 === 0 ? 'private' : 'public',
    };
  });
  return sql`
    insert into pins (user_id, title, image_url, description, tags, visibility)
    select u.id, x.title, x.image_url, x.description, x.tags, x.visibility
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x (n integer, username text, title text, image_url text, description text, tags text[], visibility text)
    join users u on u.username = x.username
    order by x.n`;
}

/** New descriptions (and their tags) for the pins with these ids. */
function redescribe(ids: number[], texts: string[]): RawBuilder<unknown> {
  const rows = ids.map((id, i) => {
    const description = texts[i % texts.length] ?? '';
    return { id, description, tags: parseTags(description) };
  });
  return sql`
    update pins set description = x.description, tags = x.tags
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x (id integer, description text, tags text[])
    where pins.id = x.id`;
}

const user = (name: string) => sql`(select id from users where username = ${name})`;
const board = (name: string) => sql`(select id from boards where name = ${name})`;

interface Step {
  name: string;
  run(db: Db): Promise<unknown>;
  /** The per-row triggers counted this too (false: a move they never looked at). */
  old?: false;
  /** pin_tags still mirror the pins' tags (false: the step edits pin_tags itself). */
  derived?: false;
}

const STEPS: Step[] = [
  {
    name: 'users and boards',
    run: async (db) => {
      await sql`
        insert into users (email, username, username_skeleton, password_hash)
        select name || '@example.test', name, name, 'x' from unnest(array['ann', 'ben', 'cat', 'dan', 'eve']) as name`.execute(db);
      await sql`
        insert into boards (user_id, name)
        select u.id, b.name from (values ('ann', 'ann 1'), ('ann', 'ann 2'), ('ben', 'ben 1'), ('cat', 'cat 1'), ('dan', 'dan 1')) as b (owner, name)
        join users u on u.username = b.owner
        order by b.name`.execute(db);
    },
  },
  { name: 'insert 120 pins of four users in one statement (a third private, #tags)', run: (db) => pinsOf(['ann', 'ben', 'cat', 'dan'], 120).execute(db) },
  {
    name: 'insert pins with repeated and empty tags',
    run: (db) =>
      sql`
        insert into pins (user_id, title, image_url, description, tags, visibility) values
          (${user('eve')}, 'Twice', 'https://a.test/t.png', '#twice #twice', array['twice', 'twice'], 'public'),
          (${user('eve')}, 'Private twice', 'https://a.test/u.png', '#twice', array['twice'], 'private'),
          (${user('eve')}, 'Nothing', 'https://a.test/v.png', '', '{}', 'public')`.execute(db),
  },
  {
    name: 'insert board entries in one statement (a pin on several boards, public and private pins)',
    run: (db) => sql`insert into board_pins (board_id, pin_id) select b.id, p.id from boards b join pins p on (p.id + b.id) % 3 = 0`.execute(db),
  },
  {
    name: 'insert favorites in one statement',
    run: (db) => sql`insert into favorites (user_id, pin_id) select u.id, p.id from users u join pins p on (p.id * u.id) % 4 = 1`.execute(db),
  },
  {
    name: 'switch visibility both ways in one statement',
    run: (db) => sql`update pins set visibility = case visibility when 'public' then 'private' else 'public' end where id % 4 in (0, 1)`.execute(db),
  },
  {
    name: 'edit descriptions: tags added, changed and removed, of public and private pins',
    run: (db) => redescribe([1, 2, 3, 5, 8, 13, 21, 34, 55, 89], ['New #sun and #moon', 'No tags any more', '#sea only', '#hiking #city #beach #moon']).execute(db),
  },
  { name: 'edit titles only', run: (db) => sql`update pins set title = title || ' (edited)' where id % 5 = 2`.execute(db) },
  {
    name: 'edit text and visibility together',
    run: (db) =>
      sql`
        update pins set description = description || ' #together', tags = array_append(tags, 'together'),
          visibility = case when id % 2 = 0 then 'public' else 'private' end
        where id % 7 = 3`.execute(db),
  },
  { name: 'an update that changes nothing counted', run: (db) => sql`update pins set likes_version = likes_version + 1, updated_at = now()`.execute(db) },
  {
    name: 'delete and insert pins in one statement (a data-modifying WITH)',
    run: (db) =>
      sql`
        with gone as (delete from pins where id % 9 = 4 returning user_id, title, description, tags, visibility)
        insert into pins (user_id, title, image_url, description, tags, visibility)
        select user_id, title || ' again', 'https://a.test/again.png', description, tags, case visibility when 'public' then 'private' else 'public' end
        from gone order by title`.execute(db),
  },
  {
    name: 'move board entries to another board',
    old: false,
    run: (db) =>
      sql`
        update board_pins set board_id = ${board('ann 2')}
        where board_id = ${board('ann 1')} and pin_id not in (select pin_id from board_pins where board_id = ${board('ann 2')})`.execute(db),
  },
  { name: 'give pins to another user', old: false, run: (db) => sql`update pins set user_id = ${user('eve')} where user_id = ${user('cat')} and id % 2 = 0`.execute(db) },
  {
    name: 'move favorites to another pin',
    old: false,
    run: (db) =>
      sql`
        update favorites set pin_id = (select max(id) from pins)
        where id in (
          select distinct on (f.user_id) f.id from favorites f
          where f.pin_id in (select pin_id from favorites group by pin_id order by pin_id limit 3)
            and not exists (select from favorites g where g.user_id = f.user_id and g.pin_id = (select max(id) from pins))
          order by f.user_id, f.id
        )`.execute(db),
  },
  { name: 'rename a tag in pin_tags itself', old: false, derived: false, run: (db) => sql`update pin_tags set tag = 'seaside' where tag = 'sea'`.execute(db) },
  { name: 'and back', old: false, run: (db) => sql`update pin_tags set tag = 'sea' where tag = 'seaside'`.execute(db) },
  { name: 'remove board entries directly, from several boards', run: (db) => sql`delete from board_pins where (pin_id + board_id) % 2 = 0`.execute(db) },
  {
    name: 'delete pins in one statement: public and private, on boards, favorited, tagged',
    run: (db) => sql`delete from pins where id % 6 = 3 or id in (select pin_id from board_pins where pin_id % 5 = 1)`.execute(db),
  },
  { name: 'remove favorites in one statement', run: (db) => sql`delete from favorites where (pin_id + user_id) % 3 = 0`.execute(db) },
  { name: 'delete a board (its entries by cascade)', run: (db) => sql`delete from boards where name = 'ben 1'`.execute(db) },
  {
    name: 'one transaction: deletions, entries, visibility, and a savepoint rolled back in between',
    run: (db) =>
      db.transaction().execute(async (trx) => {
        await sql`delete from pins where id % 8 = 6`.execute(trx);
        await sql`insert into board_pins (board_id, pin_id) select ${board('cat 1')}, id from pins where id % 8 = 7 on conflict do nothing`.execute(trx);
        await sql`savepoint undone`.execute(trx);
        await sql`delete from pins where id % 8 = 7`.execute(trx);
        await sql`update pins set visibility = 'private' where visibility = 'public'`.execute(trx);
        await sql`rollback to savepoint undone`.execute(trx);
        await sql`update pins set visibility = 'public' where id % 8 = 7`.execute(trx);
        await sql`delete from board_pins where board_id = ${board('dan 1')} and pin_id % 2 = 0`.execute(trx);
      }),
  },
  { name: 'delete a user (pins, boards, favorites by cascade)', run: (db) => sql`delete from users where username = 'dan'`.execute(db) },
  { name: "insert more pins into the emptied user's place", run: (db) => pinsOf(['ann', 'eve'], 40, 500).execute(db) },
];

describe(`migration ${MIGRATION}`, () => {
  test('every counter equals a recount after each statement: inserts, updates, moves, deletions, cascades, savepoints', { timeout: 120_000 }, async () => {
    const { db, close } = await openMigrated();
    try {
      for (const step of STEPS) {
        await step.run(db);
        expect(await drift(db, { derived: step.derived !== false }), step.name).toEqual([]);
        if (step.name.startsWith('insert favorites')) {
          const sums = await totals(db);
          for (const [name, sum] of Object.entries(sums)) expect(sum, name).toBeGreaterThan(0);
        }
      }
    } finally {
      await close();
    }
  });

  test('the same statements give the same counts, pin_tags and search words as the per-row triggers it replaced', { timeout: 120_000 }, async () => {
    const [fresh, old] = [await openMigrated(), await openMigrated({ oldTriggers: true })];
    try {
      for (const step of STEPS.filter((s) => s.old !== false)) {
        await step.run(fresh.db);
        await step.run(old.db);
        expect(await drift(old.db), `old triggers: ${step.name}`).toEqual([]);
        expect(await snapshot(fresh.db), step.name).toEqual(await snapshot(old.db));
      }
    } finally {
      await fresh.close();
      await old.close();
    }
  });

  test('concurrent writers on the same user, boards, tags and favorited pins leave every counter equal to a recount', { timeout: 120_000 }, async () => {
    const { db, close } = await openMigrated();
    try {
      await STEPS[0]?.run(db);
      await sql`insert into boards (user_id, name) select id, 'shared ' || n from users, generate_series(1, 3) as n where username = 'eve'`.execute(db);
      // Pins everyone favorites, of a user nobody deletes.
      await pinsOf(['eve'], 6, 1000).execute(db);
      // Each worker writes its own pins (two share a user) with statements of many rows, and switches
      // single pins of anyone's while the others add and remove those pins' board entries.
      const workers = ['ann', 'ann', 'ben', 'cat', 'dan', 'ben'].map((name, w) => async () => {
        const mine = sql`pins.user_id = ${user(name)} and pins.title like ${`Worker ${w} pin %`}`;
        for (let round = 0; round < 4; round++) {
          await sql`
            insert into pins (user_id, title, image_url, description, tags, visibility)
            select ${user(name)}, ${`Worker ${w} pin `} || ${round} || '.' || g, 'https://a.test/w.png', '#shared #common #w' || ${w},
              array['shared', 'common', 'w' || ${w}], case when g % 3 = 0 then 'private' else 'public' end
            from generate_series(1, 25) as g`.execute(db);
          await sql`
            insert into board_pins (board_id, pin_id)
            select b.id, pins.id from boards b, pins
            where b.name like 'shared %' and ${mine} and (pins.id + b.id) % 2 = ${round % 2}
            on conflict do nothing`.execute(db);
          await sql`
            insert into favorites (user_id, pin_id)
            select ${user(name)}, id from pins where user_id = ${user('eve')} and title like 'Pin number 10%' and id % 2 = ${(w + round) % 2}
            on conflict do nothing`.execute(db);
          await sql`update pins set visibility = case visibility when 'public' then 'private' else 'public' end where ${mine} and id % 3 = ${round % 3}`.execute(db);
          for (let i = 0; i < 5; i++) {
            await sql`
              update pins set visibility = case visibility when 'public' then 'private' else 'public' end
              where id = (select id from pins where title like 'Worker %' order by random() limit 1)`.execute(db);
          }
          await db.transaction().execute(async (trx) => {
            await sql`delete from favorites where user_id = ${user(name)} and pin_id % 3 = ${round % 3}`.execute(trx);
            await sql`delete from board_pins where pin_id in (select id from pins where ${mine}) and pin_id % 5 = ${round % 5}`.execute(trx);
          });
          await sql`delete from pins where ${mine} and id % 4 = ${round % 4}`.execute(db);
        }
      });
      const results = await Promise.allSettled(workers.map((work) => work()));
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      const sums = await totals(db);
      for (const [name, sum] of Object.entries(sums)) expect(sum, name).toBeGreaterThan(0);
      expect(await drift(db)).toEqual([]);
    } finally {
      await close();
    }
  });

  test('goes down to the per-row triggers exactly as before it, and up again', { timeout: 120_000 }, async () => {
    const created = testDatabaseKind() === 'postgres' ? [await createTestDatabase(), await createTestDatabase()] : [];
    const open = (i: number) => {
      const target = created[i];
      return openDatabase(target ? { kind: 'postgres', url: target.url } : { kind: 'pglite', dir: ':memory:' });
    };
    const [there, before] = [await open(0), await open(1)];
    const definitions = async (db: Db) => {
      const { rows } = await sql<{ definition: string }>`
        select pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and c.relname in ('pins', 'board_pins', 'favorites', 'pin_tags')
        union all
        select p.proname || ': ' || regexp_replace(p.prosrc, '[[:space:]]+', ' ', 'g') from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prorettype = 'trigger'::regtype
        order by 1`.execute(db);
      return rows.map((row) => row.definition);
    };
    try {
      const migrator = new Migrator({ db: there.db, provider: migrationProvider, allowUnorderedMigrations: true });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const latest = await definitions(there.db);
      expect(latest.filter((d) => d.includes('FOR EACH STATEMENT'))).toHaveLength(12);
      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      expect((await new Migrator({ db: before.db, provider: migrationProvider }).migrateTo(BEFORE)).error).toBeUndefined();
      const old = await definitions(before.db);
      expect(old.filter((d) => d.includes('FOR EACH ROW')).length).toBeGreaterThan(10);
      expect(await definitions(there.db)).toEqual(old);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await definitions(there.db)).toEqual(latest);
    } finally {
      await there.close();
      await before.close();
      for (const database of created) await database.drop();
    }
  });
});

describe('through the API', () => {
  const server = useTestServer();
  const profile = async (username: string) => (await new ApiClient(server.url).get<UserProfile>(`/api/users/lookup?username=${encodeURIComponent(username)}`)).body;

  test("a profile's count, a board's count and the tags follow pins made, switched, moved off a board and deleted", async () => {
    const { client, user: owner } = await signUpUser(server.url, 'stmtcounts');
    const boardMade = await client.post<Board>('/api/boards/', { name: 'Counted' });
    expect(boardMade.status).toBe(201);
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.post<Pin>('/api/pins/', {
          title: `Counted ${i}`,
          imageUrl: DRAWING_URL,
          description: i % 2 === 0 ? '#counted pins' : 'plain',
          visibility: i % 4 === 3 ? 'private' : 'public',
          ...(i < 6 ? { boardId: boardMade.body.id } : {}),
        }),
      ),
    );
    expect(made.map((res) => res.status)).toEqual(Array<number>(12).fill(201));
    const pins = made.map((res) => res.body);
    expect((await profile(owner.username)).pin_count).toBe(9);
    expect((await client.get<Board>(`/api/boards/${boardMade.body.id}`)).body.pin_count).toBe(6);

    // Switched both ways, one taken off the board, three deleted (one of them on the board).
    expect((await client.put(`/api/pins/${pins[0]?.id}`, { visibility: 'private' })).status).toBe(200);
    expect((await client.put(`/api/pins/${pins[3]?.id}`, { visibility: 'public' })).status).toBe(200);
    expect((await client.delete(`/api/boards/${boardMade.body.id}/pins/${pins[1]?.id}`)).status).toBe(200);
    for (const pin of [pins[2], pins[7], pins[10]]) expect((await client.delete(`/api/pins/${pin?.id}`)).status).toBe(200);

    expect((await profile(owner.username)).pin_count).toBe(7);
    expect((await client.get<Board>(`/api/boards/${boardMade.body.id}`)).body.pin_count).toBe(4);
    expect(await drift(server.server.database.db)).toEqual([]);
  });
});
