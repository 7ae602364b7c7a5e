import { type Kysely, sql } from 'kysely';
import * as favoriteFunctions from './20261124_0006_favorite_functions.ts';
import { adder, TAGS_ADDER } from './20261129_0027_statement_counts.ts';

// Counters without hot rows (docs/data-model.md, "Hot counters are deltas").
//
// Migration 0027 made every count one update per statement, but each update still locked the
// counted row until the commit: 50 people favoriting one pin, or pinning with one popular tag,
// waited on that one row for the whole of each other's transactions (the commit and its WAL flush
// included). Here the two counts many people write at once, pins.likes_count and tags.pin_count,
// become a base column plus insert-only delta rows (pin_like_deltas, tag_count_deltas), written by
// the statement triggers of 0027 (their adders pins_add_likes and tags_add_pin_counts are
// replaced; the triggers are unchanged). A count is `base + sum(its pending deltas)`, read in one
// snapshot.
//
// Folding: a delta is moved into its base row by whoever can lock that row without waiting
// (`for no key update skip locked`): the writing statement itself, the likes settle job, the
// recurring counters.fold job. A fold that finds the row busy leaves the deltas (someone else holds
// it and folds, or a later fold will). A fold deletes the deltas it sees and adds their sum, in one
// statement; as only the row's lock holder folds, a delta is never folded twice (a delta a
// concurrent fold deleted after this statement's snapshot is skipped by the delete, and the update
// adds to the row's latest version). `for no key update` does not conflict with the `for key share`
// that inserting a favorite or a delta takes (the foreign key check), so writers never wait for a
// fold, nor a fold for them.
//
// pins.likes_version and the `pin:likes` event: a version is only ever taken under the pin's row
// lock, held to the commit, by the writer that folds (favorite_add / favorite_remove, when the
// row was free: exactly as before, the count it reads is every committed change plus its own) or
// by pin_likes_settle (which waits for the lock: a job's statement, never a user's). A writer that
// found the row busy is "deferred": its statement answers the count it can see and the version as
// it stands, records no event, and the service sends the pins.likes-settle job, which runs after
// its commit, folds, bumps the version and publishes. So versions are distinct and increase in
// commit order, and the highest one carries every change: each change's own event (a folding
// writer) or its settle (a deferred one) comes after it committed or is it, and every version taken
// later sees it.
//
// Users' and boards' counts stay as 0027 keeps them: a user's counts are written by that user's
// own requests, a board's by its few members.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.

/** Folds the pending deltas of `p_ids`' pins whose rows are free into likes_count. */
const PIN_LIKES_FOLD = `
  create function pin_likes_fold(p_ids integer[]) returns void language plpgsql as $$
  begin
    with locked as (select id from pins where id = any (p_ids) order by id for no key update skip locked),
    gone as (delete from pin_like_deltas as d using locked where d.pin_id = locked.id returning d.pin_id, d.delta),
    sums as (select pin_id, sum(delta)::int as n from gone group by pin_id)
    update pins set likes_count = pins.likes_count + sums.n from sums where pins.id = sums.pin_id and sums.n <> 0;
  end $$`;

/** Same for tags.pin_count. */
const TAG_COUNTS_FOLD = `
  create function tag_counts_fold(p_tags text[]) returns void language plpgsql as $$
  begin
    with locked as (select tag from tags where tag = any (p_tags) order by tag for no key update skip locked),
    gone as (delete from tag_count_deltas as d using locked where d.tag = locked.tag returning d.tag, d.delta),
    sums as (select tag, sum(delta)::int as n from gone group by tag)
    update tags set pin_count = tags.pin_count + sums.n from sums where tags.tag = sums.tag and sums.n <> 0;
  end $$`;

// The adders the statement triggers of 0027 call, now writing deltas. Deltas of pins gone in this
// transaction (a deletion's cascade to its favorites) are dropped: the pin's count went with it.
const PINS_ADD_LIKES = `
  create or replace function pins_add_likes(p_ids integer[], p_likes_count integer[]) returns void language plpgsql as $$
  begin
    insert into pin_like_deltas (pin_id, delta)
    select d.id, d.n from unnest(p_ids, p_likes_count) as d (id, n) where exists (select from pins where pins.id = d.id);
    perform pin_likes_fold(p_ids);
  end $$`;
// A tag first used is inserted (count 0, its delta folded at once: the new row is this
// transaction's); two statements creating one new tag at once wait for each other, once. Only a tag
// this statement cannot see is tried: ON CONFLICT on a row a fold has updated and not yet committed
// would wait for that fold's commit. A decrement of a tag without a row counts nothing, as before.
const TAGS_ADD_COUNTS = `
  create or replace function tags_add_pin_counts(p_tags text[], p_deltas integer[]) returns void language plpgsql as $$
  begin
    insert into tags (tag, pin_count)
    select t, 0 from unnest(p_tags, p_deltas) as d (t, delta) where delta > 0 and not exists (select from tags where tags.tag = d.t) order by t
    on conflict do nothing;
    insert into tag_count_deltas (tag, delta)
    select t, delta from unnest(p_tags, p_deltas) as d (t, delta) where exists (select from tags where tags.tag = d.t);
    perform tag_counts_fold(p_tags);
  end $$`;

/** Waits for the pin's row, folds its deltas and takes the next version: the count is then exact. */
const PIN_LIKES_SETTLE = `
  create function pin_likes_settle(p_pin_id integer, out likes_count integer, out likes_version integer) language plpgsql as $$
  begin
    perform from pins where pins.id = p_pin_id for no key update;
    if not found then
      return;
    end if;
    perform pin_likes_fold(array[p_pin_id]);
    update pins set likes_version = pins.likes_version + 1 where pins.id = p_pin_id
      returning pins.likes_count, pins.likes_version into likes_count, likes_version;
  end $$`;

/**
 * After the favorite's statement: settled (this transaction holds the pin's row: a version and
 * the exact count) or deferred (the count it sees, the version as it stands; the settle job
 * publishes). `outcome` as in 0006.
 */
const LIKES_AFTER = `
      perform from pins where pins.id = v_pin for no key update skip locked;
      settled := found;
      if settled then
        select s.likes_count, s.likes_version into likes_count, likes_version from pin_likes_settle(v_pin) as s;
      else
        select p.likes_count + coalesce((select sum(d.delta) from pin_like_deltas as d where d.pin_id = p.id), 0)::int, p.likes_version
          into likes_count, likes_version from pins as p where p.id = v_pin;
      end if;`;

// The pin is taken with a key share lock (what the favorite's foreign key takes anyway), before
// the favorite, as a pin's deletion takes them (the pin, then its favorites by cascade); nothing
// here waits for a stronger lock, so no favorite waits for another.
const FAVORITE_ADD = `
  create function favorite_add(p_user_id integer, p_pin_id integer,
    out outcome text, out favorite_id integer, out title text, out image_url text,
    out likes_count integer, out likes_version integer, out settled boolean)
  language plpgsql as $$
  declare
    v_pin integer := p_pin_id;
  begin
    perform from pins where pins.id = p_pin_id for key share;
    if not found then
      outcome := 'no_pin';
      return;
    end if;
    insert into favorites (user_id, pin_id) values (p_user_id, p_pin_id)
      on conflict on constraint favorites_user_pin_key do nothing
      returning favorites.id into favorite_id;
    if favorite_id is null then
      outcome := 'already';
      return;
    end if;${LIKES_AFTER}
    select pins.title, pins.image_url into title, image_url from pins where pins.id = p_pin_id;
    outcome := 'added';
  end $$`;

const FAVORITE_REMOVE = `
  create function favorite_remove(p_user_id integer, p_favorite_id integer,
    out outcome text, out pin_id integer, out likes_count integer, out likes_version integer, out settled boolean)
  language plpgsql as $$
  declare
    v_pin integer;
    v_owner integer;
  begin
    select favorites.pin_id, favorites.user_id into v_pin, v_owner from favorites where favorites.id = p_favorite_id;
    if v_pin is null then
      outcome := 'no_favorite';
      return;
    end if;
    if v_owner <> p_user_id then
      outcome := 'not_yours';
      return;
    end if;
    -- No pin: it was deleted, and the favorite with it.
    perform from pins where pins.id = v_pin for key share;
    if not found then
      outcome := 'no_favorite';
      return;
    end if;
    delete from favorites where favorites.id = p_favorite_id and favorites.user_id = p_user_id
      returning favorites.pin_id into pin_id;
    if pin_id is null then
      -- Removed by a concurrent call.
      outcome := 'no_favorite';
      return;
    end if;${LIKES_AFTER}
    outcome := 'removed';
  end $$`;

/** Folds up to `p_limit` keys of each table with pending deltas (the counters.fold job). */
const COUNTERS_FOLD = `
  create function counters_fold(p_limit integer) returns integer language plpgsql as $$
  declare
    v_pins integer[];
    v_tags text[];
  begin
    select array_agg(pin_id) into v_pins from (select distinct pin_id from pin_like_deltas limit p_limit) as k;
    select array_agg(tag) into v_tags from (select distinct tag from tag_count_deltas limit p_limit) as k;
    if v_pins is not null then
      perform pin_likes_fold(v_pins);
    end if;
    if v_tags is not null then
      perform tag_counts_fold(v_tags);
    end if;
    return coalesce(cardinality(v_pins), 0) + coalesce(cardinality(v_tags), 0);
  end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table pin_like_deltas (id bigint generated always as identity primary key, pin_id integer not null references pins (id) on delete cascade, delta integer not null)`.execute(db);
  await sql`create index pin_like_deltas_pin on pin_like_deltas (pin_id)`.execute(db);
  await sql`create table tag_count_deltas (id bigint generated always as identity primary key, tag text not null references tags (tag) on delete cascade, delta integer not null)`.execute(db);
  await sql`create index tag_count_deltas_tag on tag_count_deltas (tag)`.execute(db);
  for (const fn of [PIN_LIKES_FOLD, TAG_COUNTS_FOLD, PINS_ADD_LIKES, TAGS_ADD_COUNTS, PIN_LIKES_SETTLE, COUNTERS_FOLD]) await sql.raw(fn).execute(db);
  await favoriteFunctions.down(db);
  await sql.raw(FAVORITE_ADD).execute(db);
  await sql.raw(FAVORITE_REMOVE).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists favorite_add(integer, integer)`.execute(db);
  await sql`drop function if exists favorite_remove(integer, integer)`.execute(db);
  await favoriteFunctions.up(db);
  // Fold what is pending (the tables go), then the adders as 0027 made them.
  await sql`update pins set likes_count = pins.likes_count + d.n from (select pin_id, sum(delta)::int as n from pin_like_deltas group by 1) as d where pins.id = d.pin_id`.execute(db);
  await sql`update tags set pin_count = tags.pin_count + d.n from (select tag, sum(delta)::int as n from tag_count_deltas group by 1) as d where tags.tag = d.tag`.execute(db);
  await sql.raw(adder('pins_add_likes', 'pins', ['likes_count']).replace('create function', 'create or replace function')).execute(db);
  await sql.raw(TAGS_ADDER.replace('create function', 'create or replace function')).execute(db);
  for (const fn of ['counters_fold(integer)', 'pin_likes_settle(integer)', 'tag_counts_fold(text[])', 'pin_likes_fold(integer[])']) await sql.raw(`drop function if exists ${fn}`).execute(db);
  await sql`drop table if exists tag_count_deltas`.execute(db);
  await sql`drop table if exists pin_like_deltas`.execute(db);
}
