import { type Kysely, sql } from 'kysely';

// Imports keep a ZIP whole and inflate an entry when its item's turn comes (docs/import-export.md):
// `archive_bytes` is what an import holds on disk, counted against its owner's allowance, 0 once
// it holds nothing. And an import can be stopped by its owner: `cancelled`.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('imports')
    .addColumn('archive_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('imports').dropConstraint('imports_status').execute();
  await db.schema
    .alterTable('imports')
    .addCheckConstraint('imports_status', sql`status in ('queued', 'running', 'done', 'failed', 'cancelled')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update imports set status = 'done' where status = 'cancelled'`.execute(db);
  await db.schema.alterTable('imports').dropConstraint('imports_status').execute();
  await db.schema
    .alterTable('imports')
    .addCheckConstraint('imports_status', sql`status in ('queued', 'running', 'done', 'failed')`)
    .execute();
  await db.schema.alterTable('imports').dropColumn('archive_bytes').execute();
}
