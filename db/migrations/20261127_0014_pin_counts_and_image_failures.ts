import { type Kysely, sql } from 'kysely';

// Profiles and mending pins (docs/profiles.md, docs/image-repair.md):
// - users.pin_count, a user's pins, kept by a trigger in the writing transaction like the other
//   counts (migration 0005): a profile shows it without a count(*) over a big user's pins;
// - pins.image_failure, why the import of the pin's image gave up for good (a reason code, read
//   only by the pin's owner), cleared when the pin gets an image or a new address.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column pin_count integer not null default 0`.execute(db);
  await sql`
    update users set pin_count = counted.n
    from (select user_id, count(*)::int as n from pins group by user_id) as counted
    where counted.user_id = users.id`.execute(db);
  await sql`
    create function users_count_pins() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update users set pin_count = pin_count + 1 where id = new.user_id;
      else
        update users set pin_count = pin_count - 1 where id = old.user_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger pins_count_per_user after insert or delete on pins for each row execute function users_count_pins()`.execute(db);
  await sql`alter table pins add column image_failure text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table pins drop column image_failure`.execute(db);
  await sql`drop trigger if exists pins_count_per_user on pins`.execute(db);
  await sql`drop function if exists users_count_pins()`.execute(db);
  await sql`alter table users drop column pin_count`.execute(db);
}
