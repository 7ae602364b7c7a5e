import { type Kysely, sql } from 'kysely';

// Lists at scale: counts become columns (no count(*) per row on any read), and every list has an
// index that serves its keyset page straight from the index order.
//
// The counts are kept by triggers, in the writing transaction: a favorite or board entry and the
// count change commit together, under the counted row's lock, so the count equals the rows at
// every commit — also when rows go by cascade (a pin's deletion removes its board entries).
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pins add column likes_count integer not null default 0`.execute(db);
  await sql`alter table boards add column pin_count integer not null default 0`.execute(db);
  await sql`
    update pins set likes_count = counted.n
    from (select pin_id, count(*)::int as n from favorites group by pin_id) as counted
    where counted.pin_id = pins.id`.execute(db);
  await sql`
    update boards set pin_count = counted.n
    from (select board_id, count(*)::int as n from board_pins group by board_id) as counted
    where counted.board_id = boards.id`.execute(db);

  await sql`
    create function pins_count_likes() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update pins set likes_count = likes_count + 1 where id = new.pin_id;
      else
        update pins set likes_count = likes_count - 1 where id = old.pin_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger favorites_count after insert or delete on favorites for each row execute function pins_count_likes()`.execute(db);

  await sql`
    create function boards_count_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update boards set pin_count = pin_count + 1 where id = new.board_id;
      else
        update boards set pin_count = pin_count - 1 where id = old.board_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger board_pins_count after insert or delete on board_pins for each row execute function boards_count_pins()`.execute(db);

  // Keyset indexes: newest first is id order (ids are handed out in insertion order).
  await sql`drop index if exists pins_created_at_idx`.execute(db);
  await sql`drop index if exists pins_user_id_idx`.execute(db);
  await sql`create index pins_user_id_idx on pins (user_id, id desc)`.execute(db);
  await sql`drop index if exists boards_user_id_idx`.execute(db);
  await sql`create index boards_user_id_idx on boards (user_id, id desc)`.execute(db);
  await sql`create index favorites_user_id_idx on favorites (user_id, id desc)`.execute(db);
  // A board's pins page most recently added first. added_at has microseconds, which a cursor would
  // have to carry exactly; an increasing entry id orders the same way and pages as a plain integer.
  await sql`alter table board_pins add column id integer`.execute(db);
  await sql`
    update board_pins set id = numbered.n
    from (select board_id, pin_id, row_number() over (order by added_at, board_id, pin_id) as n from board_pins) as numbered
    where numbered.board_id = board_pins.board_id and numbered.pin_id = board_pins.pin_id`.execute(db);
  await sql`alter table board_pins alter column id set not null`.execute(db);
  await sql`alter table board_pins alter column id add generated always as identity`.execute(db);
  await sql`select setval(pg_get_serial_sequence('board_pins', 'id'), coalesce((select max(id) from board_pins), 0) + 1, false)`.execute(db);
  await sql`create index board_pins_board_id_idx on board_pins (board_id, id desc)`.execute(db);
  await sql`drop index if exists comments_pin_created_idx`.execute(db);
  await sql`create index comments_pin_id_idx on comments (pin_id, id desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists comments_pin_id_idx`.execute(db);
  await sql`create index comments_pin_created_idx on comments (pin_id, created_at desc)`.execute(db);
  await sql`drop index if exists board_pins_board_id_idx`.execute(db);
  await sql`alter table board_pins drop column id`.execute(db);
  await sql`drop index if exists favorites_user_id_idx`.execute(db);
  await sql`drop index if exists boards_user_id_idx`.execute(db);
  await sql`create index boards_user_id_idx on boards (user_id)`.execute(db);
  await sql`drop index if exists pins_user_id_idx`.execute(db);
  await sql`create index pins_user_id_idx on pins (user_id)`.execute(db);
  await sql`create index pins_created_at_idx on pins (created_at desc, id desc)`.execute(db);
  await sql`drop trigger if exists board_pins_count on board_pins`.execute(db);
  await sql`drop function if exists boards_count_pins()`.execute(db);
  await sql`drop trigger if exists favorites_count on favorites`.execute(db);
  await sql`drop function if exists pins_count_likes()`.execute(db);
  await sql`alter table boards drop column pin_count`.execute(db);
  await sql`alter table pins drop column likes_count`.execute(db);
}
