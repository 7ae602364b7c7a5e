import { type Kysely, sql } from 'kysely';

// Pictures that are seen (docs/images.md "What is seen in a picture", docs/search.md).
//
// - `images`: what is seen in each stored picture, found once per picture (content-addressed):
//   `phash` and `phash_mirror` (64-bit perceptual hashes of the picture flattened on white and of
//   its mirror image, as signed bigints), `palette` ([{hex, share}], ≤ 5), `colors` (named colours
//   of contract/colors.ts), `text` (recognised, kept only when confident; null when none) and when
//   each was found: `seen_at` (hashes and colours) and `text_read_at` (OCR, a job of its own). A
//   null `seen_at` or `text_read_at` is what the backfill looks for (partial indexes below).
// - Near-duplicate look-ups (backend/images/seen/near-pictures.ts): eight expression indexes, one
//   per byte of `phash`, each covering (`include (phash, sha256)`: a band's range is read from the
//   index alone, never the table's pages). Two hashes at most 7 bits apart share at least one byte
//   (pigeonhole), so the candidates are the rows equal in any band, then `bit_count` of the XOR
//   decides.
// - `pins.alt_text`: what its owner says the picture shows (≤ 500 characters), null when unsaid.
// - `pins.image_text` and `pins.colors`: copies of its image's `text` and `colors`, kept by triggers
//   (a pin taking an image, an image being read), so that search filters and ranks on one table and
//   one index: `pins.search` now also weighs the alt text C and the recognised text D.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table images
      add column phash bigint,
      add column phash_mirror bigint,
      add column palette jsonb not null default '[]',
      add column colors text[] not null default '{}',
      add column text text,
      add column seen_at timestamptz,
      add column text_read_at timestamptz`.execute(db);
  for (let band = 0; band < 8; band++) {
    await sql.raw(`create index images_phash_band_${band} on images (((phash >> ${band * 8}) & 255)) include (phash, sha256) where phash is not null`).execute(db);
  }
  await sql`create index images_unseen on images (sha256) where seen_at is null`.execute(db);
  await sql`create index images_text_unread on images (sha256) where text_read_at is null`.execute(db);

  await sql`
    alter table pins
      add column alt_text text,
      add column image_text text,
      add column colors text[] not null default '{}'`.execute(db);
  await sql`create index pins_colors on pins using gin (colors) where visibility = 'public'`.execute(db);

  // The search vector gains the alt text (C) and the recognised text (D); the index stays partial.
  await sql`drop index pins_search`.execute(db);
  await sql`alter table pins drop column search`.execute(db);
  await sql`
    alter table pins add column search tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, title), 'A') ||
      setweight(to_tsvector('english'::regconfig, regexp_replace(description, '#[^[:space:][:punct:]]+', ' ', 'g')), 'B') ||
      setweight(to_tsvector('english'::regconfig, pins_search_tags(tags)), 'C') ||
      setweight(to_tsvector('english'::regconfig, coalesce(alt_text, '')), 'C') ||
      setweight(to_tsvector('english'::regconfig, coalesce(image_text, '')), 'D')
    ) stored`.execute(db);
  await sql`create index pins_search on pins using gin (search) where visibility = 'public'`.execute(db);

  // A pin taking an image takes what was seen in it (null image: nothing).
  await sql`
    create function pins_take_image_facts() returns trigger language plpgsql as $$
    begin
      -- No row (a null image) sets both to null.
      select images.text, images.colors into new.image_text, new.colors from images where images.sha256 = new.image_sha256;
      new.colors := coalesce(new.colors, '{}');
      return new;
    end $$`.execute(db);
  await sql`
    create trigger pins_image_facts_added before insert on pins
    for each row when (new.image_sha256 is not null) execute function pins_take_image_facts()`.execute(db);
  await sql`
    create trigger pins_image_facts_changed before update of image_sha256 on pins
    for each row when (old.image_sha256 is distinct from new.image_sha256) execute function pins_take_image_facts()`.execute(db);
  // An image read or seen later tells the pins that use it (few: one picture, its pins).
  await sql`
    create function images_tell_pins() returns trigger language plpgsql as $$
    begin
      update pins set image_text = new.text, colors = new.colors
      where image_sha256 = new.sha256 and (image_text is distinct from new.text or colors is distinct from new.colors);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger images_facts_changed after update of text, colors on images
    for each row when (old.text is distinct from new.text or old.colors is distinct from new.colors)
    execute function images_tell_pins()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger images_facts_changed on images`.execute(db);
  await sql`drop function images_tell_pins()`.execute(db);
  await sql`drop trigger pins_image_facts_changed on pins`.execute(db);
  await sql`drop trigger pins_image_facts_added on pins`.execute(db);
  await sql`drop function pins_take_image_facts()`.execute(db);
  await sql`drop index pins_search`.execute(db);
  await sql`alter table pins drop column search`.execute(db);
  await sql`
    alter table pins add column search tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, title), 'A') ||
      setweight(to_tsvector('english'::regconfig, regexp_replace(description, '#[^[:space:][:punct:]]+', ' ', 'g')), 'B') ||
      setweight(to_tsvector('english'::regconfig, pins_search_tags(tags)), 'C')
    ) stored`.execute(db);
  await sql`create index pins_search on pins using gin (search) where visibility = 'public'`.execute(db);
  await sql`drop index pins_colors`.execute(db);
  await sql`alter table pins drop column alt_text, drop column image_text, drop column colors`.execute(db);
  await sql`drop index images_text_unread`.execute(db);
  await sql`drop index images_unseen`.execute(db);
  for (let band = 0; band < 8; band++) await sql.raw(`drop index images_phash_band_${band}`).execute(db);
  await sql`
    alter table images
      drop column phash, drop column phash_mirror, drop column palette, drop column colors,
      drop column text, drop column seen_at, drop column text_read_at`.execute(db);
}
