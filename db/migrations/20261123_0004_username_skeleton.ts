import { type Kysely, sql } from 'kysely';
import { usernameSkeleton } from '../username-skeleton.ts';

// users.username_skeleton: the confusable skeleton of the username (backend/auth/usernames.ts),
// unique, so that of two look-alike sign-ups ("demo", "dеmo" with a Cyrillic е) racing each other
// the database lets one through. Written against Kysely<any> on purpose, like every migration; it
// uses the app's skeleton function because the stored keys must be exactly what sign-up computes.

const BATCH = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();

  // Accounts made before this rule may already look alike. The oldest keeps the plain key; each
  // later one keeps its name and gets a key no sign-up can produce (a valid username has no space,
  // and neither has its skeleton), so the unique index can be built and nobody is renamed.
  const taken = new Set<string>();
  let lastId = 0;
  for (;;) {
    const rows: Array<{ id: number; username: string }> = await db.selectFrom('users').select(['id', 'username']).where('id', '>', lastId).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) break;
    const keys = rows.map((row) => {
      const skeleton = usernameSkeleton(row.username);
      let key = taken.has(skeleton) ? `${skeleton} #${row.id}` : skeleton;
      while (taken.has(key)) key += '#';
      taken.add(key);
      return sql`(${row.id}::integer, ${key}::text)`;
    });
    await sql`
      update users set username_skeleton = keys.skeleton
      from (values ${sql.join(keys)}) as keys (id, skeleton)
      where users.id = keys.id
    `.execute(db);
    lastId = (rows.at(-1) as { id: number }).id;
  }

  await db.schema
    .alterTable('users')
    .alterColumn('username_skeleton', (c) => c.setNotNull())
    .execute();
  // Its name is mapped to a 409 by backend/http/db-errors.ts.
  await db.schema.createIndex('users_username_skeleton_key').unique().on('users').column('username_skeleton').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_username_skeleton_key').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('username_skeleton').execute();
}
