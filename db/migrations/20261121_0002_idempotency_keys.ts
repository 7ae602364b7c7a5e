import { type Kysely, sql } from 'kysely';

// Idempotency-Key records (backend/idempotency/): the first answer to a create, kept per user and
// key so that a retry — on any instance — gets that answer back instead of a second row.
// Written against Kysely<any> on purpose, like every migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // sha256 (hex) of the operation and its validated input: the same key with another request is refused.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // 0 and JSON null only while the creating transaction runs (never visible to anyone else).
    .addColumn('status_code', 'integer', (c) => c.notNull())
    // `json`, not `jsonb`: it keeps the answer's text as it was sent, so a replay is byte-identical.
    .addColumn('response', 'json', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
    .addCheckConstraint('idempotency_keys_key_format', sql`key ~ '^[!-~]{1,255}$'`)
    .addCheckConstraint('idempotency_keys_request_hash_length', sql`char_length(request_hash) = 64`)
    .addCheckConstraint('idempotency_keys_status_code', sql`status_code = 0 or status_code between 200 and 299`)
    .execute();
  // For the sweep that deletes expired records.
  await db.schema.createIndex('idempotency_keys_created_at_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
