import { type Kysely, sql } from 'kysely';

// pins.likes_version: bumped (under the pin's row lock) by every favorite added or removed, and
// sent with `pin:likes`. Events from different instances can arrive out of commit order; clients
// keep the count with the highest version instead of the last one to arrive.
// Written against Kysely<any> on purpose, like every migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('pins')
    .addColumn('likes_version', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pins').dropColumn('likes_version').execute();
}
