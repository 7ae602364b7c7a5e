import type { Kysely } from 'kysely';
import { BOARD_LINK_RULES } from '../../contract/board-link-rules.ts';
import type { DB } from '../../db/schema.ts';
import { hashSecret } from '../tokens/secrets.ts';

/**
 * Whether a board's secret link shows this stored image: one of the linked board's pins has it.
 * On a members-only site a visitor holding a link sees that board's images and no others
 * (docs/site-access.md). Read on every such request, uncached, so a revoked link shows nothing more.
 */
export async function linkShowsImage(db: Kysely<DB>, secret: string, sha256: string): Promise<boolean> {
  if (!BOARD_LINK_RULES.secretPattern.test(secret)) return false;
  const row = await db
    .selectFrom('board_links')
    .innerJoin('board_pins', 'board_pins.board_id', 'board_links.board_id')
    .innerJoin('pins', 'pins.id', 'board_pins.pin_id')
    .select('pins.id')
    .where('board_links.secret_hash', '=', hashSecret(secret))
    .where('pins.image_sha256', '=', sha256)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a public pin shows this stored image (an index probe of pins by image). */
export async function shownPublicly(db: Kysely<DB>, sha256: string): Promise<boolean> {
  const row = await db.selectFrom('pins').select('pins.id').where('pins.image_sha256', '=', sha256).where('pins.visibility', '=', 'public').limit(1).executeTakeFirst();
  return row !== undefined;
}
