import { type Kysely, sql } from 'kysely';

// Capture from anywhere (docs/tokens-and-capture.md): personal access tokens, and the page a pin
// was saved from.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // sha256 of the secret, hex: the secret itself is shown once and never stored.
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    // Written in batches (backend/tokens/last-used.ts), not on every request.
    .addColumn('last_used_at', 'timestamptz')
    .addCheckConstraint('api_tokens_scope', sql`scope in ('read', 'write')`)
    .addCheckConstraint('api_tokens_secret_hash', sql`secret_hash ~ '^[0-9a-f]{64}$'`)
    .addCheckConstraint('api_tokens_name_length', sql`char_length(name) between 1 and 100`)
    .execute();
  // A user's tokens, newest first (the Tokens screen; the per-user cap counts them).
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').columns(['user_id', 'id']).execute();

  // The page an image was saved from (null: typed in, uploaded, or from before). Normalised http(s)
  // URLs of at most 2,048 ASCII characters, so they fit a b-tree entry.
  await sql`alter table pins add column source_url text`.execute(db);
  await sql`alter table pins add constraint pins_source_url_length check (char_length(source_url) <= 2048)`.execute(db);
  // GET /api/pins/lookup: one user's pins from one page, newest first. Partial: most pins have none.
  await sql`create index pins_user_source_idx on pins (user_id, source_url, id) where source_url is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists pins_user_source_idx`.execute(db);
  await sql`alter table pins drop constraint if exists pins_source_url_length`.execute(db);
  await sql`alter table pins drop column if exists source_url`.execute(db);
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
