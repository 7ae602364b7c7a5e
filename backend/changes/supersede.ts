import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * What an edit or a deletion does to the log's earlier rows, in its own transaction, before its
 * own row is recorded (docs/change-log.md): text that is no longer true stops being served.
 * - an edited pin's or comment's earlier rows carry its new text in place of the old;
 * - a deleted pin's rows, and its comments', and a deleted comment's rows are removed: the
 *   deletion itself (ids only) supersedes them for every reader;
 * - a pin whose image address the import guard refused (docs/images.md) has it emptied in its
 *   earlier rows too: no reader's browser is sent there by the log either.
 * Rows are locked in seq order, as pruning locks the rows it deletes: taking locks in one order,
 * the two cannot deadlock.
 */
export type Superseded =
  | { pinEdited: { id: number; title: string; description: string; tags: readonly string[] } }
  | { pinDeleted: number }
  | { commentEdited: { id: number; text: string } }
  | { commentDeleted: number }
  | { pinImageRefused: number };

export async function supersedeChanges(trx: Kysely<DB>, what: Superseded): Promise<void> {
  if (!trx.isTransaction) throw new Error('supersedeChanges must run inside the writing transaction');
  if ('pinEdited' in what) {
    const { id, title, description, tags } = what.pinEdited;
    // The tags are the description's (docs/search.md): replaced with it.
    await sql`
      update changes set data = jsonb_set(data, '{pin}', (data -> 'pin') || jsonb_build_object('title', ${title}::text, 'description', ${description}::text, 'tags', ${JSON.stringify(tags)}::jsonb))
      where seq in (select seq from changes where pin_id = ${id} and comment_id is null order by seq for update)`.execute(trx);
  } else if ('pinImageRefused' in what) {
    await sql`
      update changes set data = jsonb_set(data, '{pin,image_url}', '""'::jsonb)
      where seq in (select seq from changes where pin_id = ${what.pinImageRefused} and comment_id is null and data ? 'pin' order by seq for update)`.execute(trx);
  } else if ('commentEdited' in what) {
    const { id, text } = what.commentEdited;
    await sql`
      update changes set data = jsonb_set(data, '{comment,text}', to_jsonb(${text}::text))
      where seq in (select seq from changes where comment_id = ${id} order by seq for update)`.execute(trx);
  } else {
    const where = 'pinDeleted' in what ? sql`pin_id = ${what.pinDeleted}` : sql`comment_id = ${what.commentDeleted}`;
    await sql`delete from changes where seq in (select seq from changes where ${where} order by seq for update)`.execute(trx);
  }
}
