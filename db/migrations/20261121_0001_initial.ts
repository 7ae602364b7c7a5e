import { type Kysely, sql } from 'kysely';

// Written against Kysely<any> on purpose: a migration must keep working after db/schema.ts moves on.
// Constraint names are referenced by backend/http/db-errors.ts to map violations to 409/404.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_email_length', sql`char_length(email) between 3 and 254`)
    .addCheckConstraint('users_username_length', sql`char_length(username) between 3 and 40`)
    .execute();
  // Case-insensitive uniqueness: "Alice" and "alice" are the same person to other users.
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);
  await sql`create unique index users_username_key on users (lower(username))`.execute(db);

  await db.schema
    .createTable('pins')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('pins_title_length', sql`char_length(title) between 1 and 200`)
    .addCheckConstraint('pins_image_url_length', sql`char_length(image_url) between 1 and 2048`)
    .addCheckConstraint('pins_description_length', sql`char_length(description) <= 2000`)
    .execute();
  await db.schema.createIndex('pins_user_id_idx').on('pins').column('user_id').execute();
  await db.schema.createIndex('pins_created_at_idx').on('pins').columns(['created_at desc', 'id desc']).execute();

  await db.schema
    .createTable('boards')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('boards_name_length', sql`char_length(name) between 1 and 100`)
    .execute();
  await db.schema.createIndex('boards_user_id_idx').on('boards').column('user_id').execute();

  await db.schema
    .createTable('board_pins')
    .addColumn('board_id', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('pin_id', 'integer', (c) => c.notNull().references('pins.id').onDelete('cascade'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('board_pins_pkey', ['board_id', 'pin_id'])
    .execute();
  await db.schema.createIndex('board_pins_pin_id_idx').on('board_pins').column('pin_id').execute();

  await db.schema
    .createTable('favorites')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('pin_id', 'integer', (c) => c.notNull().references('pins.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('favorites_user_pin_key', ['user_id', 'pin_id'])
    .execute();
  // Likes counts are counted from these rows, so they can never drift from them.
  await db.schema.createIndex('favorites_pin_id_idx').on('favorites').column('pin_id').execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('pin_id', 'integer', (c) => c.notNull().references('pins.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('comments_user_pin_key', ['user_id', 'pin_id'])
    .addCheckConstraint('comments_text_length', sql`char_length(text) between 1 and 1000`)
    .execute();
  await db.schema.createIndex('comments_pin_created_idx').on('comments').columns(['pin_id', 'created_at desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['comments', 'favorites', 'board_pins', 'boards', 'pins', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
