import { type Kysely, sql } from 'kysely';

// Imports (docs/import-export.md): an import, its items (one per pin to make), the pins and boards
// it made (to undo it, and so that the same file imported again makes nothing twice).
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // When `import:progress` was last sent, by any instance: at most once a second.
    .addColumn('progress_at', 'timestamptz')
    // Where the files of a ZIP's entries wait for their items (null for a bookmark file).
    .addColumn('files_dir', 'text')
    // A Pinboard export's boards, favorites, comments and members: applied once the pins exist.
    .addColumn('extra', 'jsonb')
    .addCheckConstraint('imports_kind', sql`kind in ('netscape', 'pinboard', 'images')`)
    .addCheckConstraint('imports_status', sql`status in ('queued', 'running', 'done', 'failed')`)
    .execute();
  // A user's imports, newest first; and the one that runs next (oldest queued or running first).
  await db.schema.createIndex('imports_user_idx').on('imports').columns(['user_id', 'id']).execute();
  await sql`create index imports_user_unfinished_idx on imports (user_id, id) where status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable('import_items')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('imports.id').onDelete('cascade'))
    // The item's place in the file, from 0.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    // What the file says of it: title, description, source, image (an address or a file), boards…
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('reason', 'text')
    // Passing failures (a remote server down) are tried again a few times, not before `not_before`.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_before', 'timestamptz')
    .addColumn('pin_id', 'integer', (c) => c.references('pins.id').onDelete('set null'))
    .addPrimaryKeyConstraint('import_items_pkey', ['import_id', 'position'])
    .addCheckConstraint('import_items_state', sql`state in ('pending', 'done', 'failed')`)
    .execute();
  // The next batch to run, and the failures to list: partial, so finished items cost nothing.
  await sql`create index import_items_pending_idx on import_items (import_id, position) where state = 'pending'`.execute(db);
  await sql`create index import_items_failed_idx on import_items (import_id, position) where state = 'failed'`.execute(db);

  // The pins imports made, by the item's identity in its file: a second import of the same item
  // finds its pin (and adds it to the item's boards) instead of making another. A pin deleted since
  // takes its row with it, so importing it again makes it again.
  await db.schema
    .createTable('imported_pins')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('pin_id', 'integer', (c) => c.notNull().references('pins.id').onDelete('cascade'))
    .addColumn('import_id', 'integer', (c) => c.references('imports.id').onDelete('set null'))
    // The pin as made: undo removes it only while it is still so (not edited since).
    .addColumn('pin_updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('imported_pins_pkey', ['user_id', 'item_key'])
    .execute();
  await db.schema.createIndex('imported_pins_import_idx').on('imported_pins').columns(['import_id', 'pin_id']).execute();
  await db.schema.createIndex('imported_pins_pin_idx').on('imported_pins').column('pin_id').execute();

  // The boards an import made (not the ones it reused by name): undo removes them while unchanged.
  await db.schema
    .createTable('import_boards')
    .addColumn('import_id', 'integer', (c) => c.notNull().references('imports.id').onDelete('cascade'))
    .addColumn('board_id', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('board_updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_boards_pkey', ['import_id', 'board_id'])
    .execute();
  await db.schema.createIndex('import_boards_board_idx').on('import_boards').column('board_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_boards').ifExists().execute();
  await db.schema.dropTable('imported_pins').ifExists().execute();
  await db.schema.dropTable('import_items').ifExists().execute();
  await db.schema.dropTable('imports').ifExists().execute();
}
