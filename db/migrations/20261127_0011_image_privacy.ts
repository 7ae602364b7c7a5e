import { type Kysely, sql } from 'kysely';

// Stored originals lose their metadata (EXIF, XMP, IPTC, comments: docs/images.md), and a pin whose
// import the SSRF guard refused stops serving that address.
// - images.source_sha256: the sha256 of the bytes as received. The key (sha256) is now the hash of
//   what is stored, which differs from what was sent once metadata is removed; this one lets the
//   same upload sent again be answered from its row. Null for rows stored before, whose key is
//   their received bytes' hash (the lookup reads both; the strip job fills it in).
// - images.metadata_stripped: false for the rows stored before, whose originals still carry their
//   metadata until the images.strip-metadata job has rewritten them; a partial index lists them.
// - pins.refused_image_url: the address of a pin's image that the SSRF guard refused, kept for its
//   owner while pins.image_url (what every viewer's browser would fetch) is emptied.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table images add column source_sha256 text check (source_sha256 ~ '^[0-9a-f]{64}$')`.execute(db);
  await sql`create index images_source_sha256 on images (source_sha256) where source_sha256 is not null`.execute(db);
  // Added with false for every existing row (a constant default: no table rewrite), then true for
  // new ones, which the new code stores without metadata.
  await sql`alter table images add column metadata_stripped boolean not null default false`.execute(db);
  await sql`alter table images alter column metadata_stripped set default true`.execute(db);
  await sql`create index images_metadata_unstripped on images (sha256) where not metadata_stripped`.execute(db);
  await sql`alter table pins add column refused_image_url text`.execute(db);
  // An empty image_url only with the refused address kept beside it. NOT VALID: existing rows all
  // have one already (the old check said so), and validating would read the whole table.
  await sql`alter table pins drop constraint pins_image_url_length`.execute(db);
  await sql`
    alter table pins add constraint pins_image_url_length
    check (char_length(image_url) between 1 and 2048 or (image_url = '' and refused_image_url is not null)) not valid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // A refused pin gets its address back.
  await sql`update pins set image_url = refused_image_url where refused_image_url is not null`.execute(db);
  await sql`alter table pins drop constraint pins_image_url_length`.execute(db);
  await sql`alter table pins add constraint pins_image_url_length check (char_length(image_url) between 1 and 2048) not valid`.execute(db);
  await sql`alter table pins drop column refused_image_url`.execute(db);
  await sql`drop index if exists images_metadata_unstripped`.execute(db);
  await sql`alter table images drop column metadata_stripped`.execute(db);
  await sql`drop index if exists images_source_sha256`.execute(db);
  await sql`alter table images drop column source_sha256`.execute(db);
}
