import { sql } from 'kysely';

/**
 * A pin's likes as the reader's snapshot sees them: pins.likes_count (folded) plus its pending
 * pin_like_deltas (docs/data-model.md, "Hot counters are deltas"), an index probe on a table that
 * holds only what folds left behind. Used wherever `pins` is in the query under its own name.
 */
export const likesCountOfPins = sql<number>`(pins.likes_count + coalesce((select sum(d.delta) from pin_like_deltas as d where d.pin_id = pins.id), 0))::int`;
