import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Which of a board's pins a reader is shown (docs/board-sharing.md, "Public boards and links"):
 * - `all`: a member of the board, or the holder of one of its links, sees every pin on it;
 * - `outsider`: anyone reading a public board without being a member sees only public pins;
 * - an expression: `all` where it holds for the row's board (a list mixing boards the reader is a
 *   member of with public ones they are not), `outsider` elsewhere.
 */
export type PinAudience = 'all' | 'outsider' | Expression<SqlBool>;

/**
 * THE one place that decides it: every query of a board's pins (a page of them, the covers of a
 * board card) filters its `pins` rows through this condition.
 */
export function boardPinFilter(audience: PinAudience): RawBuilder<SqlBool> {
  if (audience === 'all') return sql<SqlBool>`true`;
  // A private pin is its owner's and its boards' members' (docs/board-sharing.md): an outsider
  // reading a public board is shown the public ones only.
  const outsiderMaySee = sql<SqlBool>`pins.visibility = 'public'`;
  if (audience === 'outsider') return outsiderMaySee;
  return sql<SqlBool>`(${audience} or ${outsiderMaySee})`;
}
