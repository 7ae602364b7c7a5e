import { type Kysely, sql } from 'kysely';

// Members-only sites and who may join (docs/site-access.md): accounts an operator disabled, and
// invite links that let a given number of people sign up.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  // Null: the account may sign in. Set by `npm run users -- disable EMAIL`.
  await sql`alter table users add column disabled_at timestamptz`.execute(db);
  // `code` is kept as it is (not hashed): its maker lists their links to copy them again, and an
  // invite opens no data, only the sign-up form. `created_by` null: made by the operator command.
  // `used` counts sign-ups; the row's update in the sign-up's transaction is what makes a one-use
  // code admit exactly one account when two arrive at once.
  await sql`
    create table invites (
      id integer generated always as identity primary key,
      code text not null unique,
      created_by integer references users (id) on delete cascade,
      uses integer not null,
      used integer not null default 0,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      constraint invites_uses check (uses between 1 and 1000),
      constraint invites_used check (used between 0 and uses)
    )`.execute(db);
  // A member's invites, newest first (GET /api/invites).
  await sql`create index invites_created_by_idx on invites (created_by, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists invites`.execute(db);
  await sql`alter table users drop column if exists disabled_at`.execute(db);
}
