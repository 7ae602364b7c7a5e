import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

/**
 * Opaque, tamper-proof cursors. A cursor names the list it belongs to (its scope: "pins:newest",
 * "comments:pin:7", …) and a position in it, signed with a key derived from SESSION_SECRET so every
 * instance accepts every other's. A malformed, tampered or foreign cursor (another list's, another
 * user's) is a 400; nothing in it is trusted before the signature and the scope check.
 */
export interface CursorCodec {
  encode(scope: string, position: unknown): string;
  /** The position of a cursor issued for `scope`, checked against `schema`; 400 otherwise. */
  decode<S extends z.ZodType>(scope: string, cursor: string, schema: S): z.output<S>;
}

const SIGNATURE_BYTES = 16;

export function createCursorCodec(sessionSecret: string): CursorCodec {
  const key = createHmac('sha256', sessionSecret).update('pinboard cursor').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
  const invalid = () => new HttpError(400, MSG.cursorInvalid, { fields: { cursor: MSG.cursorInvalid } });

  return {
    encode(scope, position) {
      const payload = Buffer.from(JSON.stringify({ s: scope, p: position })).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(scope, cursor, schema) {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      // Compared as text, not as decoded bytes: base64 decoders skip padding and the unused low
      // bits of the last character, so several spellings decode to the same bytes. Exactly one
      // spelling of a cursor is valid.
      const given = Buffer.from(signature);
      const expected = Buffer.from(sign(payload).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (typeof parsed !== 'object' || parsed === null || (parsed as { s?: unknown }).s !== scope) throw invalid();
      const position = schema.safeParse((parsed as { p?: unknown }).p);
      if (!position.success) throw invalid();
      return position.data;
    },
  };
}
