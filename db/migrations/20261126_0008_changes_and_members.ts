import { type Kysely, sql } from 'kysely';

// Curating together (docs/board-sharing.md): board collaborators and the change log.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  // Collaborators only: a board's owner stays `boards.user_id`, so ownership keeps one source.
  await sql`
    create table board_members (
      board_id integer not null references boards (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      added_at timestamptz not null default now(),
      primary key (board_id, user_id)
    )`.execute(db);
  // "Boards shared with me" and "is this user a member" read by user first.
  await sql`create index board_members_user_board on board_members (user_id, board_id)`.execute(db);
  // The invite type-ahead (GET /api/users/?q=) matches a prefix of lower(username). The unique
  // index on lower(username) uses the database's collation, where LIKE 'ab%' cannot be a range
  // scan; in the "C" collation it can, and the matches come out in order.
  await sql`create index users_username_prefix on users ((lower(username) collate "C"))`.execute(db);

  // One row holds the last seq handed out. A writer takes the next number by updating this row as
  // the last step of its transaction and keeps the row locked until it commits, so numbers become
  // visible in commit order: nobody can read seq 11 while seq 10 is still uncommitted (a plain
  // sequence hands numbers out in start order, and a poller could skip a slow writer's row).
  // `pruned_through`: the highest seq already deleted, so a reader asking from before it is told to reset.
  await sql`
    create table change_counter (
      id boolean primary key default true check (id),
      seq bigint not null default 0,
      pruned_through bigint not null default 0
    )`.execute(db);
  await sql`insert into change_counter default values`.execute(db);

  // Every committed change, as its socket event carried it (without `seq`). Who may read it:
  // everyone when `public`, else the users in `user_ids` (the actor, or a board's members as of the
  // change's commit, so a member removed later keeps seeing only what happened while they were one).
  await sql`
    create table changes (
      seq bigint primary key,
      event text not null,
      data jsonb not null,
      public boolean not null,
      user_ids integer[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  // Pruning deletes by age.
  await sql`create index changes_created_at on changes (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table changes`.execute(db);
  await sql`drop table change_counter`.execute(db);
  await sql`drop index users_username_prefix`.execute(db);
  await sql`drop table board_members`.execute(db);
}
