import { type Kysely, sql } from 'kysely';

// Forgotten passwords (docs/accounts.md): a reset link's token is kept only as its SHA-256, so a
// copy of the database opens no account; a link lasts an hour and is taken once.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table password_resets (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index password_resets_user on password_resets (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table password_resets`.execute(db);
}
