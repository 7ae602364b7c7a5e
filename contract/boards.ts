import { z } from 'zod';
import { requiredText } from './fields.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

export const BoardPin = z
  .object({ id: z.number().int(), title: z.string(), image_url: z.string() })
  .meta({ id: 'BoardPin' });
export type BoardPin = z.infer<typeof BoardPin>;

export const Board = z
  .object({
    id: z.number().int(),
    name: z.string(),
    user_id: z.number().int(),
    pins: z.array(BoardPin),
  })
  .meta({ id: 'Board' });
export type Board = z.infer<typeof Board>;

export const BoardList = z.object({ boards: z.array(Board) }).meta({ id: 'BoardList' });
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
