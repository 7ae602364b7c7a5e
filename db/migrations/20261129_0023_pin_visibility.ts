import { type Kysely, sql } from 'kysely';

// Who sees what (docs/who-sees-what.md): every pin is `public` or `private`. A private pin exists
// only for its owner and the members of the boards that hold it, so what every visitor may read is
// kept for public pins only:
// - `pin_tags` (and so each tag's `pin_count`, the tag pages and the type-ahead) holds public pins;
// - `search_words` takes the words of public pins, and the search index (`pins_search`) holds
//   public pins only (search finds only those; a private pin costs a search nothing);
// - `users.pin_count` counts a user's public pins (what a profile shows everyone), and
//   `users.private_pin_count` the others (added for their owner);
// - `boards.public_pin_count` counts a board's public pins (what a public board shows outsiders).
// Existing pins made straight into a board become private, as the new default would have made them:
// every board was private until now, and a pin saved into one (the extension, the pin builder, a
// bulk upload, an import) was meant for it. "Straight into" is read as: added to a board of its
// owner's (owned or shared) within a minute of its creation, or placed in one of its owner's boards
// by the import that made it. Pins of the demo set, made hours before their boards, stay public.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pins add column visibility text not null default 'public'`.execute(db);
  await sql`alter table pins add constraint pins_visibility check (visibility in ('public', 'private'))`.execute(db);
  await sql`alter table users add column private_pin_count integer not null default 0`.execute(db);
  // Every pin is public until the update at the end (whose triggers move the counts).
  await sql`alter table boards add column public_pin_count integer not null default 0`.execute(db);
  await sql`update boards set public_pin_count = pin_count`.execute(db);
  // A pin put on or taken off a board counts there when public. A pin deleted takes its entries
  // with it by cascade, after it is gone, so its boards' public counts are taken down before (below).
  await sql`
    create or replace function boards_count_pins() returns trigger language plpgsql as $$
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
    end $$`.execute(db);
  await sql`
    create function boards_count_public_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        update boards set public_pin_count = public_pin_count - 1 where id in (select board_id from board_pins where pin_id = old.id);
        return old;
      end if;
      update boards set public_pin_count = public_pin_count + (case when new.visibility = 'public' then 1 else -1 end)
      where id in (select board_id from board_pins where pin_id = new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger pins_board_public_deleted before delete on pins for each row when (old.visibility = 'public') execute function boards_count_public_pins()`.execute(db);
  await sql`
    create trigger pins_board_public_changed after update of visibility on pins
    for each row when (old.visibility is distinct from new.visibility) execute function boards_count_public_pins()`.execute(db);

  await sql`
    create or replace function users_count_pins() returns trigger language plpgsql as $$
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
    end $$`.execute(db);
  await sql`
    create trigger pins_count_visibility after update of visibility on pins
    for each row when (old.visibility is distinct from new.visibility) execute function users_count_pins()`.execute(db);

  await sql`
    create or replace function pins_sync_tags() returns trigger language plpgsql as $$
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
    end $$`.execute(db);
  await sql`drop trigger pins_tags_added on pins`.execute(db);
  await sql`
    create trigger pins_tags_added after insert on pins
    for each row when (cardinality(new.tags) > 0 and new.visibility = 'public') execute function pins_sync_tags()`.execute(db);
  await sql`drop trigger pins_tags_changed on pins`.execute(db);
  await sql`
    create trigger pins_tags_changed after update of tags, visibility on pins
    for each row when (old.tags is distinct from new.tags or old.visibility is distinct from new.visibility) execute function pins_sync_tags()`.execute(db);

  await sql`drop index pins_search`.execute(db);
  await sql`create index pins_search on pins using gin (search) where visibility = 'public'`.execute(db);
  await sql`drop trigger pins_words_added on pins`.execute(db);
  await sql`create trigger pins_words_added after insert on pins for each row when (new.visibility = 'public') execute function pins_collect_words()`.execute(db);
  await sql`drop trigger pins_words_changed on pins`.execute(db);
  await sql`
    create trigger pins_words_changed after update of title, description, visibility on pins
    for each row when (new.visibility = 'public' and (old.title is distinct from new.title or old.description is distinct from new.description or old.visibility is distinct from new.visibility))
    execute function pins_collect_words()`.execute(db);

  // The pins made straight into a board (above) become private; the triggers move their counts and tags.
  await sql`
    update pins set visibility = 'private'
    where exists (
      select 1 from board_pins bp join boards b on b.id = bp.board_id
      where bp.pin_id = pins.id
        and (b.user_id = pins.user_id or exists (select 1 from board_members m where m.board_id = b.id and m.user_id = pins.user_id))
        and (bp.added_at <= pins.created_at + interval '1 minute'
          or exists (select 1 from imported_pins ip where ip.pin_id = pins.id and ip.user_id = pins.user_id))
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update pins set visibility = 'public' where visibility = 'private'`.execute(db);
  await sql`drop trigger pins_board_public_changed on pins`.execute(db);
  await sql`drop trigger pins_board_public_deleted on pins`.execute(db);
  await sql`drop function boards_count_public_pins()`.execute(db);
  await sql`
    create or replace function boards_count_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update boards set pin_count = pin_count + 1 where id = new.board_id;
      else
        update boards set pin_count = pin_count - 1 where id = old.board_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`alter table boards drop column public_pin_count`.execute(db);
  await sql`drop trigger pins_count_visibility on pins`.execute(db);
  await sql`
    create or replace function users_count_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update users set pin_count = pin_count + 1 where id = new.user_id;
      else
        update users set pin_count = pin_count - 1 where id = old.user_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function pins_sync_tags() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        delete from pin_tags where pin_id = new.id and not (tag = any (new.tags));
      end if;
      insert into pin_tags (tag, pin_id)
      select distinct t, new.id from unnest(new.tags) as t order by 1
      on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`drop trigger pins_tags_added on pins`.execute(db);
  await sql`create trigger pins_tags_added after insert on pins for each row when (cardinality(new.tags) > 0) execute function pins_sync_tags()`.execute(db);
  await sql`drop trigger pins_tags_changed on pins`.execute(db);
  await sql`create trigger pins_tags_changed after update of tags on pins for each row when (old.tags is distinct from new.tags) execute function pins_sync_tags()`.execute(db);
  await sql`drop index pins_search`.execute(db);
  await sql`create index pins_search on pins using gin (search)`.execute(db);
  await sql`drop trigger pins_words_added on pins`.execute(db);
  await sql`create trigger pins_words_added after insert on pins for each row execute function pins_collect_words()`.execute(db);
  await sql`drop trigger pins_words_changed on pins`.execute(db);
  await sql`
    create trigger pins_words_changed after update of title, description on pins
    for each row when (old.title is distinct from new.title or old.description is distinct from new.description)
    execute function pins_collect_words()`.execute(db);
  await sql`alter table users drop column private_pin_count`.execute(db);
  await sql`alter table pins drop constraint pins_visibility`.execute(db);
  await sql`alter table pins drop column visibility`.execute(db);
}
