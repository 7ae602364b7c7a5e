import { type Kysely, sql } from 'kysely';

// The change log forgets text that is no longer true (docs/change-log.md): the rows that carry a
// pin's or a comment's text name it, so an edit or a deletion finds them in its own transaction.
// `pin_id` on the pin's rows and on its comments' rows (a pin's deletion takes its comments),
// `comment_id` on a comment's rows; null on every row that carries no such text.
// Written against Kysely<any>: a migration must keep working after db/schema.ts moves on.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table changes add column pin_id integer, add column comment_id integer`.execute(db);
  // The log holds a day or so: naming what it already holds is one short pass.
  await sql`update changes set pin_id = (data -> 'pin' ->> 'id')::integer where event in ('pin:created', 'pin:updated')`.execute(db);
  await sql`
    update changes set pin_id = (data -> 'comment' ->> 'pin_id')::integer, comment_id = (data -> 'comment' ->> 'id')::integer
    where event in ('comment:created', 'comment:updated')`.execute(db);
  await sql`create index changes_pin on changes (pin_id, seq) where pin_id is not null`.execute(db);
  await sql`create index changes_comment on changes (comment_id, seq) where comment_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table changes drop column comment_id, drop column pin_id`.execute(db);
}
