import { type Kysely, sql } from 'kysely';

// Counters are kept per statement (docs/data-model.md, "Counters are kept per statement").
//
// The counts (users.pin_count and private_pin_count, boards.pin_count and public_pin_count,
// pins.likes_count, tags.pin_count) and the tables derived from public pins (pin_tags,
// search_words) were kept by per-row triggers: a statement inserting 200,000 pins for one user
// updated that user's row 200,000 times in one transaction, and each update walks the row's chain
// of versions from the start, so the statement took quadratic time (17.5 minutes). Here every one
// of them becomes an AFTER … FOR EACH STATEMENT trigger with transition tables: the statement's
// rows are counted per key (`group by user_id`, board, pin, tag) and each counted row is updated
// once per statement. What each count counts is unchanged (migrations 0005, 0012, 0014, 0023):
// - users.pin_count: the user's pins with visibility 'public'; private_pin_count: 'private' ones;
// - boards.pin_count: the board's entries; public_pin_count: its entries whose pin is public;
// - pins.likes_count: the pin's favorites;
// - tags.pin_count: the tag's pin_tags rows, which are the distinct tags of each public pin;
// - search_words: every word of a public pin's title and description (words only grow).
// Updates count too when they move a row to another key (a pin to another user, an entry to
// another board, a favorite to another pin), which the per-row triggers never looked at.
//
// Locks: the counted rows of one table are locked in key order (`order by … for no key update`,
// then one set-based update; tags by one INSERT … ON CONFLICT fed in tag order), so concurrent
// statements take them in the same order. Across tables, a statement on pins takes its users'
// rows first, then (on a change of visibility) boards, then tags; a deletion's cascades then count
// the board entries, favorites and tags it took, in the order Postgres runs them. A statement on
// board_pins, favorites or pin_tags takes its one table's counted rows.
//
// A pin's deletion takes its board entries by cascade, and the cascade's triggers run after the
// pins statement's own, when the pin is gone: the board_pins trigger can no longer read whether
// it was public. (The per-row design took the public counts down in a BEFORE DELETE trigger on
// pins, once per pin.) So the pins DELETE trigger leaves the ids of the public pins it deleted in
// a transaction-local setting, `pinboard.deleted_public_pins`, which the board_pins DELETE
// trigger reads for the entries whose pin no longer exists. Postgres queues the referential
// actions' trigger events behind the deleting statement's own AFTER STATEMENT event (and fires a
// cascade's statement trigger once, with all of its rows), so the setting is always written first;
// tests/api/statement-counts.test.ts checks it on both Postgres and PGlite. A stale value left by
// an earlier statement names only pins already gone with their entries, so it is never misread.
//
// An entry's pin is read under a share lock (taken in id order): a concurrent change of the pin's
// visibility, which holds the pin's row to its commit, is either committed and read, or waits and
// then sees the entry. (The per-row trigger read it without: an entry added or removed while its
// pin switched could be counted with the old visibility.)
//
// Per-row triggers that stay: the image references (pins_image_*: not counts, one image row each).
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.

type Event = 'insert' | 'update' | 'delete';
const EVENTS: readonly Event[] = ['insert', 'update', 'delete'];
const PAST: Record<Event, string> = { insert: 'inserted', update: 'updated', delete: 'deleted' };
/** One trigger per event: transition tables allow no more (nor a column list, `update of`). */
const TRANSITION: Record<Event, string> = {
  insert: 'new table as new_rows',
  update: 'old table as old_rows new table as new_rows',
  delete: 'old table as old_rows',
};
/** The statement's rows with `delta`: +1 for a row as it is after the statement, -1 as it was before. */
const CHANGES: Record<Event, string> = {
  insert: '(select *, 1 as delta from new_rows)',
  update: '(select *, 1 as delta from new_rows union all select *, -1 from old_rows)',
  delete: '(select *, -1 as delta from old_rows)',
};

/** `name(ids, …)`: adds each array's values to its column of the rows with those ids, locked in id order. */
export const adder = (name: string, table: string, columns: readonly string[]) => `
  create function ${name}(p_ids integer[], ${columns.map((c) => `p_${c} integer[]`).join(', ')}) returns void language plpgsql as $$
  begin
    if cardinality(p_ids) > 1 then
      perform from ${table} where id = any (p_ids) order by id for no key update;
    end if;
    update ${table} set ${columns.map((c) => `${c} = ${table}.${c} + d.${c}`).join(', ')}
    from unnest(p_ids, ${columns.map((c) => `p_${c}`).join(', ')}) as d (id, ${columns.join(', ')})
    where ${table}.id = d.id;
  end $$`;
const ADDERS = [
  ['users_add_pin_counts', 'users', ['pin_count', 'private_pin_count']],
  ['boards_add_pin_counts', 'boards', ['pin_count', 'public_pin_count']],
  ['pins_add_likes', 'pins', ['likes_count']],
] as const;
// Tags: decrements update the tags that exist (as the per-row trigger did), locked in tag order;
// increments insert the new ones, fed in tag order.
export const TAGS_ADDER = `
  create function tags_add_pin_counts(p_tags text[], p_deltas integer[]) returns void language plpgsql as $$
  begin
    if exists (select from unnest(p_deltas) as d where d < 0) then
      perform from tags where tag in (select t from unnest(p_tags, p_deltas) as d (t, delta) where delta < 0) order by tag for no key update;
      update tags set pin_count = tags.pin_count + d.delta from unnest(p_tags, p_deltas) as d (t, delta) where tags.tag = d.t and d.delta < 0;
    end if;
    insert into tags (tag, pin_count)
    select t, delta from unnest(p_tags, p_deltas) as d (t, delta) where delta > 0 order by t
    on conflict (tag) do update set pin_count = tags.pin_count + excluded.pin_count;
  end $$`;
const ADDED = [
  'users_add_pin_counts(integer[], integer[], integer[])',
  'boards_add_pin_counts(integer[], integer[], integer[])',
  'pins_add_likes(integer[], integer[])',
  'tags_add_pin_counts(text[], integer[])',
];

/**
 * Sums each of `sums` per `key` over `rows`, and hands the keys whose sums are not all zero to
 * `adder` in key order, with their sums (through the trigger function's v_keys, v_1, v_2).
 */
const count = (adder: string, key: string, sums: readonly string[], rows: string) => {
  const n = sums.map((_, i) => i + 1);
  return `
      select array_agg(k order by k), ${n.map((i) => `array_agg(s${i} order by k)`).join(', ')} into v_keys, ${n.map((i) => `v_${i}`).join(', ')}
      from (select ${key} as k, ${sums.map((sum, i) => `sum(${sum})::int as s${i + 1}`).join(', ')} from ${rows} group by 1) as counted
      where ${n.map((i) => `s${i} <> 0`).join(' or ')};
      if v_keys is not null then
        perform ${adder}(v_keys, ${n.map((i) => `v_${i}`).join(', ')});
      end if;`;
};

const triggerFunction = (name: string, keyType: string, body: string) => `
    create function ${name}() returns trigger language plpgsql as $$
    declare
      v_keys ${keyType}[];
      v_1 integer[];
      v_2 integer[];
      v_gone integer[];
    begin${body}
      return null;
    end $$`;

/** The words of public pins, as search_words takes them. */
const words = (rows: string, where: string) => `
      insert into search_words (word)
      select distinct w.lexeme from ${rows}, unnest(to_tsvector('simple'::regconfig, n.title || ' ' || n.description)) as w
      where ${where} and length(w.lexeme) between 3 and 40 and w.lexeme !~ '[[:space:][:punct:]]'
      order by 1
      on conflict do nothing;`;
const users = (event: Event) => count('users_add_pin_counts', 'user_id', ["delta * (visibility = 'public')::int", "delta * (visibility = 'private')::int"], `${CHANGES[event]} as c`);
const CHANGED = 'old_rows as o join new_rows as n on n.id = o.id';
const TAGS_CHANGED = 'o.tags is distinct from n.tags or o.visibility is distinct from n.visibility';
const TEXT_CHANGED = 'o.title is distinct from n.title or o.description is distinct from n.description or o.visibility is distinct from n.visibility';

// Pins: their users' counts; made, the tags and words of the public ones. Changed (most updates
// change nothing counted, a like, an image, a timestamp: one look and out): the users' counts, the
// public counts of the boards holding pins whose visibility changed, the pins' tags (a public pin's
// follow its tags, a private pin has none; the tags it loses and gains are locked first, in order,
// so that the removal and the addition take them as one set), the words of public pins whose text
// or visibility changed. Deleted: the note for their board entries' cascade (see above); their
// pin_tags rows and favorites go by cascade too, and those tables' triggers count them.
const PINS: Record<Event, string> = {
  insert: `${users('insert')}
      if exists (select from new_rows where cardinality(tags) > 0 and visibility = 'public') then
        insert into pin_tags (tag, pin_id)
        select distinct t, n.id from new_rows as n, unnest(n.tags) as t where cardinality(n.tags) > 0 and n.visibility = 'public'
        order by 1, 2
        on conflict do nothing;
      end if;${words('new_rows as n', "n.visibility = 'public'")}`,
  update: `
      if not exists (select from ${CHANGED} where o.user_id is distinct from n.user_id or o.tags is distinct from n.tags or ${TEXT_CHANGED}) then
        return null;
      end if;${users('update')}${count(
        'boards_add_pin_counts',
        'bp.board_id',
        ['0', "(n.visibility = 'public')::int - (o.visibility = 'public')::int"],
        `${CHANGED} join board_pins as bp on bp.pin_id = n.id where o.visibility is distinct from n.visibility`,
      )}
      if exists (select from ${CHANGED} where ${TAGS_CHANGED}) then
        perform from tags where tag in (select t from ${CHANGED}, unnest(o.tags || n.tags) as t where ${TAGS_CHANGED}) order by tag for no key update;
        delete from pin_tags using ${CHANGED}
        where pin_tags.pin_id = n.id and (${TAGS_CHANGED}) and (n.visibility = 'private' or not (pin_tags.tag = any (n.tags)));
        insert into pin_tags (tag, pin_id)
        select distinct t, n.id from ${CHANGED}, unnest(n.tags) as t where (${TAGS_CHANGED}) and n.visibility <> 'private'
        order by 1, 2
        on conflict do nothing;
      end if;${words(CHANGED, `n.visibility = 'public' and (${TEXT_CHANGED})`)}`,
  delete: `${users('delete')}
      perform set_config('pinboard.deleted_public_pins', coalesce((select string_agg(id::text, ',') from old_rows where visibility = 'public'), ''), true);`,
};

// Board entries: each board's entries, and those whose pin is public (read under a share lock).
const boardEntries = (event: Event) => `
      perform from pins where id in (select pin_id from ${CHANGES[event]} as e) order by id for share;${
        event === 'delete'
          ? `
      -- Entries whose pin is gone went with it (a cascade): whether it was public is in the note.
      if exists (select from old_rows as e where not exists (select from pins as p where p.id = e.pin_id)) then
        v_gone := string_to_array(nullif(current_setting('pinboard.deleted_public_pins', true), ''), ',')::integer[];
      end if;`
          : ''
      }${count(
        'boards_add_pin_counts',
        'e.board_id',
        ['e.delta', "e.delta * (case when p.id is null then g.id is not null else p.visibility = 'public' end)::int"],
        `${CHANGES[event]} as e left join pins as p on p.id = e.pin_id left join unnest(v_gone) as g (id) on g.id = e.pin_id`,
      )}`;

/** Each counted table: the type of its counters' key, and its trigger functions' bodies. */
const COUNTED: ReadonlyArray<readonly [table: string, keyType: string, body: (event: Event) => string]> = [
  ['pins', 'integer', (event) => PINS[event]],
  ['board_pins', 'integer', boardEntries],
  ['favorites', 'integer', (event) => count('pins_add_likes', 'pin_id', ['delta'], `${CHANGES[event]} as c`)],
  ['pin_tags', 'text', (event) => count('tags_add_pin_counts', 'tag', ['delta'], `${CHANGES[event]} as c`)],
];
/** The statement trigger of a table and event, and its function: `pins_counts_inserted`. */
const counts = (table: string, event: Event) => `${table}_counts_${PAST[event]}`;

/** The per-row triggers it replaces, as migrations 0005, 0012, 0014 and 0023 left them. */
const PER_ROW_TRIGGERS = [
  ['favorites', 'favorites_count', 'after insert or delete on favorites for each row execute function pins_count_likes()'],
  ['board_pins', 'board_pins_count', 'after insert or delete on board_pins for each row execute function boards_count_pins()'],
  ['pins', 'pins_board_public_deleted', "before delete on pins for each row when (old.visibility = 'public') execute function boards_count_public_pins()"],
  ['pins', 'pins_board_public_changed', 'after update of visibility on pins for each row when (old.visibility is distinct from new.visibility) execute function boards_count_public_pins()'],
  ['pins', 'pins_count_per_user', 'after insert or delete on pins for each row execute function users_count_pins()'],
  ['pins', 'pins_count_visibility', 'after update of visibility on pins for each row when (old.visibility is distinct from new.visibility) execute function users_count_pins()'],
  ['pin_tags', 'pin_tags_count', 'after insert or delete on pin_tags for each row execute function tags_count_pins()'],
  ['pins', 'pins_tags_added', "after insert on pins for each row when (cardinality(new.tags) > 0 and new.visibility = 'public') execute function pins_sync_tags()"],
  [
    'pins',
    'pins_tags_changed',
    'after update of tags, visibility on pins for each row when (old.tags is distinct from new.tags or old.visibility is distinct from new.visibility) execute function pins_sync_tags()',
  ],
  ['pins', 'pins_words_added', "after insert on pins for each row when (new.visibility = 'public') execute function pins_collect_words()"],
  [
    'pins',
    'pins_words_changed',
    "after update of title, description, visibility on pins for each row when (new.visibility = 'public' and (old.title is distinct from new.title or old.description is distinct from new.description or old.visibility is distinct from new.visibility)) execute function pins_collect_words()",
  ],
] as const;

/** Their functions' bodies, likewise. */
const PER_ROW_FUNCTIONS: Record<string, string> = {
  pins_count_likes: `
    begin
      if tg_op = 'INSERT' then
        update pins set likes_count = likes_count + 1 where id = new.pin_id;
      else
        update pins set likes_count = likes_count - 1 where id = old.pin_id;
      end if;
      return null;
    end `,
  boards_count_pins: `
    begin
      if tg_op = 'INSERT' then
        update boards set pin_count = pin_count + 1,
          public_pin_count = public_pin_count + coalesce((select (visibility = 'public')::int from pins where id = new.pin_id), 0)
        where id = new.board_id;
      else
        update boards set pin_count = pin_count - 1,
          public_pin_count = public_pin_count - coalesce((select (visibility = 'public')::int from pins where id = old.pin_id), 0)
        where id = old.board_id;
      end if;
      return null;
    end `,
  boards_count_public_pins: `
    begin
      if tg_op = 'DELETE' then
        update boards set public_pin_count = public_pin_count - 1 where id in (select board_id from board_pins where pin_id = old.id);
        return old;
      end if;
      update boards set public_pin_count = public_pin_count + (case when new.visibility = 'public' then 1 else -1 end)
      where id in (select board_id from board_pins where pin_id = new.id);
      return null;
    end `,
  users_count_pins: `
    begin
      if tg_op = 'INSERT' then
        update users set pin_count = pin_count + (new.visibility = 'public')::int, private_pin_count = private_pin_count + (new.visibility = 'private')::int
        where id = new.user_id;
      elsif tg_op = 'DELETE' then
        update users set pin_count = pin_count - (old.visibility = 'public')::int, private_pin_count = private_pin_count - (old.visibility = 'private')::int
        where id = old.user_id;
      else
        update users set pin_count = pin_count + (new.visibility = 'public')::int - (old.visibility = 'public')::int,
          private_pin_count = private_pin_count + (new.visibility = 'private')::int - (old.visibility = 'private')::int
        where id = new.user_id;
      end if;
      return null;
    end `,
  tags_count_pins: `
    begin
      if tg_op = 'INSERT' then
        insert into tags (tag, pin_count) values (new.tag, 1)
        on conflict (tag) do update set pin_count = tags.pin_count + 1;
      else
        update tags set pin_count = pin_count - 1 where tag = old.tag;
      end if;
      return null;
    end `,
  pins_sync_tags: `
    begin
      if new.visibility = 'private' then
        delete from pin_tags where pin_id = new.id;
        return null;
      end if;
      if tg_op = 'UPDATE' then
        delete from pin_tags where pin_id = new.id and not (tag = any (new.tags));
      end if;
      insert into pin_tags (tag, pin_id)
      select distinct t, new.id from unnest(new.tags) as t order by 1
      on conflict do nothing;
      return null;
    end `,
  pins_collect_words: `
    begin
      insert into search_words (word)
      select lexeme from unnest(to_tsvector('simple'::regconfig, new.title || ' ' || new.description))
      where length(lexeme) between 3 and 40 and lexeme !~ '[[:space:][:punct:]]'
      order by 1
      on conflict do nothing;
      return null;
    end `,
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of ADDERS) await sql.raw(adder(name, table, columns)).execute(db);
  await sql.raw(TAGS_ADDER).execute(db);
  for (const [table, keyType, body] of COUNTED) {
    for (const event of EVENTS) await sql.raw(triggerFunction(counts(table, event), keyType, body(event))).execute(db);
  }
  for (const [table, name] of PER_ROW_TRIGGERS) await sql`drop trigger ${sql.id(name)} on ${sql.table(table)}`.execute(db);
  for (const name of Object.keys(PER_ROW_FUNCTIONS)) await sql`drop function ${sql.id(name)}()`.execute(db);
  for (const [table] of COUNTED) {
    for (const event of EVENTS) {
      const name = counts(table, event);
      await sql`
        create trigger ${sql.id(name)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(TRANSITION[event])} for each statement execute function ${sql.id(name)}()`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of COUNTED) {
    for (const event of EVENTS) {
      await sql`drop trigger if exists ${sql.id(counts(table, event))} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists ${sql.id(counts(table, event))}()`.execute(db);
    }
  }
  for (const fn of ADDED) await sql`drop function if exists ${sql.raw(fn)}`.execute(db);
  for (const [name, body] of Object.entries(PER_ROW_FUNCTIONS)) {
    await sql`create function ${sql.id(name)}() returns trigger language plpgsql as ${sql.raw(`$$${body}$$`)}`.execute(db);
  }
  for (const [, name, definition] of PER_ROW_TRIGGERS) await sql`create trigger ${sql.id(name)} ${sql.raw(definition)}`.execute(db);
}
