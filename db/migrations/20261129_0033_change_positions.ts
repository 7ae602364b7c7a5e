import { type Kysely, sql } from 'kysely';

// The change log numbers its rows by transaction id and ordinal (docs/change-log.md, "Positions
// without a lock"), so the counter every write used to lock is gone: change_counter keeps only
// where pruning stopped. Positions start far above the counter's numbers (a transaction id shifted
// left by 20 bits), so the rows already logged stay in order below the new ones.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table change_counter drop column seq`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table change_counter add column seq bigint not null default 0`.execute(db);
  await sql`update change_counter set seq = coalesce((select max(seq) from changes), 0)`.execute(db);
}
