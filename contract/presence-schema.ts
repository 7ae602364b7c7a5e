import { z } from 'zod';
import { idField } from './fields.ts';
import { PRESENCE_MESSAGES } from './presence.ts';

/** presence:join / presence:leave: one pin or one board. */
export const PresencePayload = z.union([z.strictObject({ pinId: idField('pinId') }), z.strictObject({ boardId: idField('boardId') })], { error: PRESENCE_MESSAGES.invalid });
