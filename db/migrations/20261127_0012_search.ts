import { type Kysely, sql } from 'kysely';
import { parseTags } from '../../contract/tags.ts';

// Search, tags and related pins (docs/search.md).
//
// - `pins.tags`: the #tags of the description, parsed by the server (contract/tags.ts) and written
//   with the description in the same statement.
// - `pins.search`: a stored generated tsvector with an explicit text-search configuration (an
//   expression with a configuration is immutable, which a generated column needs): the title weighs
//   A, the description without its #tags B, the tags C. A GIN index answers `@@` without reading the
//   text again, and ts_rank reads the stored vector (no re-tokenizing per row at query time).
// - `pin_tags` (tag, pin) and `tags` (tag, pin_count): kept by triggers in the writing transaction,
//   so a pin is findable by its tags the moment it commits; the count is a column, never a count(*).
// - `search_words`: every word used in a title or description (lower-cased, unstemmed), with a
//   trigram index: a misspelt query word is matched to similar words one by one (pg_trgm).
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`alter table pins add column tags text[] not null default '{}'`.execute(db);
  // array_to_string is only "stable" (it calls the element type's output function); for text[] it
  // cannot change, and a generated column may only call immutable functions.
  await sql`create function pins_search_tags(tags text[]) returns text language sql immutable parallel safe return array_to_string(tags, ' ')`.execute(db);
  await sql`
    alter table pins add column search tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, title), 'A') ||
      setweight(to_tsvector('english'::regconfig, regexp_replace(description, '#[^[:space:][:punct:]]+', ' ', 'g')), 'B') ||
      setweight(to_tsvector('english'::regconfig, pins_search_tags(tags)), 'C')
    ) stored`.execute(db);
  await sql`create index pins_search on pins using gin (search)`.execute(db);

  await sql`create table tags (tag text primary key, pin_count integer not null default 0)`.execute(db);
  // The type-ahead reads tags by prefix (LIKE 'sun%', a range scan in byte order) and by similarity.
  await sql`create index tags_prefix on tags (tag text_pattern_ops) where pin_count > 0`.execute(db);
  await sql`create index tags_trgm on tags using gin (tag gin_trgm_ops)`.execute(db);
  // The primary key pages a tag's pins newest first; (pin_id) finds a pin's tags.
  await sql`create table pin_tags (tag text not null, pin_id integer not null references pins (id) on delete cascade, primary key (tag, pin_id))`.execute(db);
  await sql`create index pin_tags_pin_id on pin_tags (pin_id)`.execute(db);

  await sql`
    create function tags_count_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into tags (tag, pin_count) values (new.tag, 1)
        on conflict (tag) do update set pin_count = tags.pin_count + 1;
      else
        update tags set pin_count = pin_count - 1 where tag = old.tag;
      end if;
      return null;
    end $$`.execute(db);
  // A pin's deletion removes its pin_tags rows by cascade, which runs this trigger too.
  await sql`create trigger pin_tags_count after insert or delete on pin_tags for each row execute function tags_count_pins()`.execute(db);

  // Tags in sorted order: two writers touching the same tags lock their count rows in one order.
  await sql`
    create function pins_sync_tags() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        delete from pin_tags where pin_id = new.id and not (tag = any (new.tags));
      end if;
      insert into pin_tags (tag, pin_id)
      select distinct t, new.id from unnest(new.tags) as t order by 1
      on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger pins_tags_added after insert on pins
    for each row when (cardinality(new.tags) > 0) execute function pins_sync_tags()`.execute(db);
  await sql`
    create trigger pins_tags_changed after update of tags on pins
    for each row when (old.tags is distinct from new.tags) execute function pins_sync_tags()`.execute(db);

  await sql`create table search_words (word text primary key)`.execute(db);
  await sql`create index search_words_trgm on search_words using gin (word gin_trgm_ops)`.execute(db);
  // Words only grow: a word whose pins are gone stays, and a typo corrected to it finds nothing
  // more than before. Words with spaces or ASCII punctuation (addresses, e-mails) are left out, so
  // every word is a plain token that to_tsquery reads back as itself.
  await sql`
    create function pins_collect_words() returns trigger language plpgsql as $$
    begin
      insert into search_words (word)
      select lexeme from unnest(to_tsvector('simple'::regconfig, new.title || ' ' || new.description))
      where length(lexeme) between 3 and 40 and lexeme !~ '[[:space:][:punct:]]'
      order by 1
      on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger pins_words_added after insert on pins for each row execute function pins_collect_words()`.execute(db);
  await sql`
    create trigger pins_words_changed after update of title, description on pins
    for each row when (old.title is distinct from new.title or old.description is distinct from new.description)
    execute function pins_collect_words()`.execute(db);

  await tagExistingPins(db);
  // Words of the pins written before this migration.
  await sql`
    insert into search_words (word)
    select distinct lexeme from pins, unnest(to_tsvector('simple'::regconfig, title || ' ' || description))
    where length(lexeme) between 3 and 40 and lexeme !~ '[[:space:][:punct:]]'
    on conflict do nothing`.execute(db);
}

/** Pins written before this migration get their tags (parsed here, as the server does), in batches. */
async function tagExistingPins(db: Kysely<any>): Promise<void> {
  const BATCH = 1000;
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; description: string }>`
      select id, description from pins where id > ${after} and description like '%#%' order by id limit ${BATCH}`.execute(db);
    const tagged = rows.map((row) => ({ id: row.id, tags: parseTags(row.description) })).filter((row) => row.tags.length > 0);
    if (tagged.length > 0) {
      await sql`
        update pins set tags = given.tags
        from jsonb_to_recordset(${JSON.stringify(tagged)}::jsonb) as given (id integer, tags text[])
        where pins.id = given.id`.execute(db);
    }
    if (rows.length < BATCH) return;
    after = rows.at(-1)?.id ?? after;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists pins_words_changed on pins`.execute(db);
  await sql`drop trigger if exists pins_words_added on pins`.execute(db);
  await sql`drop function if exists pins_collect_words()`.execute(db);
  await sql`drop table if exists search_words`.execute(db);
  await sql`drop trigger if exists pins_tags_changed on pins`.execute(db);
  await sql`drop trigger if exists pins_tags_added on pins`.execute(db);
  await sql`drop function if exists pins_sync_tags()`.execute(db);
  await sql`drop table if exists pin_tags`.execute(db);
  await sql`drop function if exists tags_count_pins()`.execute(db);
  await sql`drop table if exists tags`.execute(db);
  await sql`drop index if exists pins_search`.execute(db);
  await sql`alter table pins drop column if exists search`.execute(db);
  await sql`drop function if exists pins_search_tags(text[])`.execute(db);
  await sql`alter table pins drop column if exists tags`.execute(db);
  await sql`drop extension if exists pg_trgm`.execute(db);
}
