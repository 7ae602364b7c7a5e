import { type Kysely, sql } from 'kysely';

// Merged duplicates (docs/duplicates.md): a merge deletes the pins merged into the one kept, and
// keeps what it takes to put them back for a while (`snapshot`: each pin's row, its board entries,
// favorites and moved comments, and what the kept pin gained). An undo re-creates them from it and
// deletes the row; rows past the undo window are deleted by the owner's next merge. The kept pin's
// deletion, or its owner's, makes an undo impossible: the row goes with them.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table pin_merges (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      kept_pin_id integer not null references pins (id) on delete cascade,
      snapshot jsonb not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index pin_merges_user on pin_merges (user_id, created_at)`.execute(db);
  await sql`create index pin_merges_kept_pin on pin_merges (kept_pin_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table pin_merges`.execute(db);
}
