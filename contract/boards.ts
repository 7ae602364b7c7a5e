import { z } from 'zod';
import { requiredText } from './fields.ts';
import { PinImage } from './images.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';
import { NextCursor } from './paging.ts';

export const BoardPin = z
  .object({ id: z.number().int(), title: z.string(), image_url: z.string(), image: PinImage.nullable() })
  .meta({ id: 'BoardPin' });
export type BoardPin = z.infer<typeof BoardPin>;

/**
 * A board with its pin count and some of its pins, most recently added first: in the boards list
 * and in live events, the covers (at most LIMITS.boardCovers); from GET /api/boards/{id}, a page.
 */
export const Board = z
  .object({
    id: z.number().int(),
    name: z.string(),
    user_id: z.number().int(),
    pin_count: z.number().int(),
    pins: z.array(BoardPin),
  })
  .meta({ id: 'Board' });
export type Board = z.infer<typeof Board>;

/** GET /api/boards/{id}: the board and one page of its pins; the next page comes with `cursor`. */
export const BoardPage = Board.extend({ nextCursor: NextCursor }).meta({ id: 'BoardPage' });
export type BoardPage = z.infer<typeof BoardPage>;

/** Newest first, paged. */
export const BoardList = z.object({ boards: z.array(Board), nextCursor: NextCursor }).meta({ id: 'BoardList' });
export type BoardList = z.infer<typeof BoardList>;

export const BoardBody = z
  .object({ name: requiredText(MSG.boardNameRequired, LIMITS.boardName, 'Board name') })
  .meta({ id: 'BoardBody' });

export const BoardDeleted = z
  .object({ message: z.string(), id: z.number().int() })
  .meta({ id: 'BoardDeleted' });
export type BoardDeleted = z.infer<typeof BoardDeleted>;

export const BoardPinRemoved = z
  .object({ message: z.string(), board_id: z.number().int(), pin_id: z.number().int() })
  .meta({ id: 'BoardPinRemoved' });
export type BoardPinRemoved = z.infer<typeof BoardPinRemoved>;
