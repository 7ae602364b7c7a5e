import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

// Idempotent writes: the creates (POST /api/pins/, POST /api/boards/, POST
// /api/comments/pins/{pinId}/comments) and every write the web client's outbox queues
// (docs/outbox.md: POST /api/favorites/, DELETE /api/favorites/{id}, POST /api/boards/{id}/pins,
// DELETE /api/boards/{id}/pins/{pinId}, DELETE /api/pins/{id}, DELETE /api/boards/{id}) accept an
// optional Idempotency-Key header — the routes marked `idempotent` in contract/endpoints.ts. A retry
// with the same key (same user, within LIMITS.idempotencyKeyHours) gets the first answer back, same
// status and body, marked with Idempotent-Replayed: true, and changes nothing: no second row, and a
// repeated DELETE answers like the first time rather than 404.

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 visible ASCII characters (0x21–0x7E): no spaces, controls or non-ASCII. */
export const IdempotencyKey = z
  .string()
  .regex(new RegExp(`^[\\x21-\\x7E]{1,${LIMITS.idempotencyKeyMax}}$`), { error: MSG.idempotencyKeyInvalid })
  .meta({
    description: `Optional. 1 to ${LIMITS.idempotencyKeyMax} visible ASCII characters, e.g. a UUID. A retry with the same key within ${LIMITS.idempotencyKeyHours} hours returns the first answer (status and body) and changes nothing; the same key with a different request is refused with 422.`,
    example: '5f0c7a4e-8f53-4a8e-9d1b-2f6f1c2b9a10',
  });
