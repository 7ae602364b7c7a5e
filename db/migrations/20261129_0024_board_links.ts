import { type Kysely, sql } from 'kysely';

// Public boards and secret read-only links (docs/board-sharing.md, "Public boards and links").
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  // Every existing board stays as it was: private to its members.
  await sql`alter table boards add column visibility text not null default 'private'`.execute(db);
  await sql`alter table boards add constraint boards_visibility check (visibility in ('private', 'public'))`.execute(db);
  // A profile's public boards, newest first (GET /api/users/{id}/boards): partial, as most boards are private.
  await sql`create index boards_user_public_idx on boards (user_id, id) where visibility = 'public'`.execute(db);

  // A link is its secret's sha256 (hex): the secret is shown once to the owner and never stored,
  // like a personal access token's. `hint` is the secret's last 4 characters, so the owner can tell
  // links apart in the list (24 of its 256 bits: no help to a guesser).
  await sql`
    create table board_links (
      id integer generated always as identity primary key,
      board_id integer not null references boards (id) on delete cascade,
      secret_hash text not null unique,
      hint text not null,
      created_at timestamptz not null default now(),
      constraint board_links_secret_hash check (secret_hash ~ '^[0-9a-f]{64}$'),
      constraint board_links_hint check (char_length(hint) = 4)
    )`.execute(db);
  // A board's links, newest first (the Share dialog; the per-board cap counts them).
  await sql`create index board_links_board_idx on board_links (board_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists board_links`.execute(db);
  await sql`drop index if exists boards_user_public_idx`.execute(db);
  await sql`alter table boards drop constraint if exists boards_visibility`.execute(db);
  await sql`alter table boards drop column if exists visibility`.execute(db);
}
