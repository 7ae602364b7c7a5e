import { type Kysely, sql } from 'kysely';

// Being added to boards with consent (docs/board-sharing.md): who added each collaborator, and
// the users each user has blocked from adding them.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  // Null for members added before this column, and when the adder's account is gone.
  await sql`alter table board_members add column added_by integer references users (id) on delete set null`.execute(db);
  // `id` orders a user's blocks newest first (GET /api/users/blocks pages them by it); "has the
  // invitee blocked this owner" is one probe of the unique (user_id, blocked_id).
  await sql`
    create table user_blocks (
      id integer generated always as identity primary key,
      user_id integer not null references users (id) on delete cascade,
      blocked_id integer not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      unique (user_id, blocked_id),
      check (user_id <> blocked_id)
    )`.execute(db);
  await sql`create index user_blocks_user_id on user_blocks (user_id, id)`.execute(db);
  // Deleting an account deletes the blocks of it by its blocked_id: without an index, a scan.
  await sql`create index user_blocks_blocked on user_blocks (blocked_id)`.execute(db);
  // The same for members' adders (on delete set null).
  await sql`create index board_members_added_by on board_members (added_by) where added_by is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index board_members_added_by`.execute(db);
  await sql`drop table user_blocks`.execute(db);
  await sql`alter table board_members drop column added_by`.execute(db);
}
