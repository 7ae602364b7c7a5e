import { type Kysely, type RawBuilder, sql } from 'kysely';
import { SEARCH_MSG, type SearchScope } from '../../contract/search-rules.ts';
import type { DB } from '../../db/schema.ts';
import { boardReadAccess } from '../boards/board-access.ts';
import { boardPinFilter } from '../boards/board-pin-filter.ts';
import { unauthorized } from '../errors.ts';
import { visibleTo } from '../visibility/pin-access.ts';

// Where a search looks (docs/search.md "Scopes"), as a condition over `pins p`, and a key naming it
// for the cursor (a cursor of one scope, or one reader's, is refused by any other).
//
// - none: the public pins (the partial search and colour indexes hold exactly those);
// - `mine`: the caller's pins, private ones included (pins_user_id_idx, (user_id, id desc));
// - `favorites`: the pins the caller favorited that they may still see (docs/who-sees-what.md);
// - `board:<id>`: the pins of a board the caller may read (board-access.ts: 404 otherwise, as for
//   a missing board), all of them for a member, the public ones for an outsider of a public board.
// Favorites and boards are id sets the planner reads first (favorites_user_id_idx,
// board_pins_board_id_idx) and joins to pins by primary key: a search of them costs what the set
// holds, never the table.

export interface ResolvedScope {
  condition: RawBuilder<boolean>;
  key: string;
  /** Whether the condition is `p.visibility = 'public'` alone (the windowed search applies). */
  everyone: boolean;
}

export async function resolveScope(db: Kysely<DB>, scope: SearchScope | undefined, userId: number | undefined): Promise<ResolvedScope> {
  if (scope === undefined) return { condition: sql<boolean>`p.visibility = 'public'`, key: 'public', everyone: true };
  if (scope.kind === 'board') {
    const access = await boardReadAccess(db, userId, scope.boardId);
    const audience = access.role === 'viewer' ? 'outsider' : 'all';
    return {
      condition: sql<boolean>`p.id in (
        select pins.id from board_pins bp join pins on pins.id = bp.pin_id
        where bp.board_id = ${scope.boardId} and ${boardPinFilter(audience)})`,
      key: `board:${scope.boardId}:${audience}:${userId ?? 0}`,
      everyone: false,
    };
  }
  if (userId === undefined) throw unauthorized(SEARCH_MSG.scopeNeedsSignIn, { scope: SEARCH_MSG.scopeNeedsSignIn });
  if (scope.kind === 'mine') return { condition: sql<boolean>`p.user_id = ${userId}`, key: `mine:${userId}`, everyone: false };
  return {
    condition: sql<boolean>`p.id in (
      select pins.id from favorites f join pins on pins.id = f.pin_id
      where f.user_id = ${userId} and ${visibleTo(userId)})`,
    key: `favorites:${userId}`,
    everyone: false,
  };
}
