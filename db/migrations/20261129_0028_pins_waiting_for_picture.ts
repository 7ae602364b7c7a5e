import { type Kysely, sql } from 'kysely';

// A public pin whose image address the server refuses to fetch has no picture and never will from
// that address: it is shown to nobody but its viewers until it has one (docs/who-sees-what.md). It
// is kept private, marked as waiting to be public, and made public when a picture arrives. Counts,
// search and the public lists follow `visibility` alone, as for any private pin.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pins add column waits_for_picture boolean not null default false`.execute(db);
  await sql`alter table pins add constraint pins_waits_private check (not waits_for_picture or visibility = 'private')`.execute(db);
  await sql`
    update pins set visibility = 'private', waits_for_picture = true
    where visibility = 'public' and image_sha256 is null and refused_image_url is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update pins set visibility = 'public' where waits_for_picture`.execute(db);
  await sql`alter table pins drop constraint pins_waits_private`.execute(db);
  await sql`alter table pins drop column waits_for_picture`.execute(db);
}
