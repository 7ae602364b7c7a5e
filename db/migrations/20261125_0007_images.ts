import { type Kysely, sql } from 'kysely';

// Stored images (docs/images.md). A row is written only after the original and its thumbnails are in
// storage, so a row always means its files exist. Content-addressed: the key is the sha256 of the
// original bytes, so the same file uploaded twice is one row and one set of files.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table images (
      sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
      format text not null check (format in ('jpeg', 'png', 'webp', 'gif', 'avif')),
      bytes integer not null check (bytes > 0),
      width integer not null check (width > 0),
      height integer not null check (height > 0),
      placeholder text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  // Null while a pin's remote image is not imported (or could not be). No index: images are never
  // deleted (so the foreign key never scans pins), and no query looks pins up by image.
  await sql`alter table pins add column image_sha256 text references images (sha256)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table pins drop column image_sha256`.execute(db);
  await sql`drop table images`.execute(db);
}
