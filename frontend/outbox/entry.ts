// One write waiting in the outbox (docs/outbox.md): the request itself, with the Idempotency-Key
// made once, when the user acted, and what it is for on screen (its subject and a label such as the
// pin's title), so that a new tab can show it and undo it if the server refuses it.
import type { BoardPin } from '../../contract/index.ts';
import { MSG } from '../../contract/messages.ts';
import type { ApiError } from '../api/client.ts';
import { endpointUrl } from '../api/endpoint.ts';

export type OutboxSubject =
  | { kind: 'favorite'; pinId: number }
  | { kind: 'unfavorite'; pinId: number; favoriteId: number }
  | { kind: 'board-save'; boardId: number; pin: BoardPin }
  | { kind: 'board-remove'; boardId: number; pinId: number; pin: BoardPin | undefined }
  | { kind: 'comment'; pinId: number; text: string }
  | { kind: 'pin-delete'; pinId: number }
  | { kind: 'board-delete'; boardId: number };

export type OutboxKind = OutboxSubject['kind'];

export interface OutboxRequest {
  method: 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}

export interface OutboxEntry<S extends OutboxSubject = OutboxSubject> extends OutboxRequest {
  /** The Idempotency-Key: the same on every attempt, so the server applies the write once. */
  key: string;
  /** When the user acted (ms since the epoch): entries older than the server's window are dropped. */
  createdAt: number;
  /** Whose write it is: sent only while that user is signed in. */
  userId: number;
  /** What the write is about, in words (a pin's title, a board's name). */
  label: string;
  subject: S;
}

/** What the user asked for, before the outbox gives it its key and time. */
export type NewEntry<S extends OutboxSubject = OutboxSubject> = Pick<OutboxEntry<S>, 'userId' | 'label' | 'subject'>;

/** The call that carries out `subject`. */
export function requestOf(subject: OutboxSubject): OutboxRequest {
  switch (subject.kind) {
    case 'favorite':
      return { method: 'POST', path: endpointUrl('POST /api/favorites/', { body: { pin_id: subject.pinId } }), body: { pin_id: subject.pinId } };
    case 'unfavorite':
      return { method: 'DELETE', path: endpointUrl('DELETE /api/favorites/{id}', { params: { id: subject.favoriteId } }) };
    case 'board-save':
      return { method: 'POST', path: endpointUrl('POST /api/boards/{id}/pins', { params: { id: subject.boardId }, body: { pin_id: subject.pin.id } }), body: { pin_id: subject.pin.id } };
    case 'board-remove':
      return { method: 'DELETE', path: endpointUrl('DELETE /api/boards/{id}/pins/{pinId}', { params: { id: subject.boardId, pinId: subject.pinId } }) };
    case 'comment':
      return { method: 'POST', path: endpointUrl('POST /api/comments/pins/{pinId}/comments', { params: { pinId: subject.pinId }, body: { text: subject.text } }), body: { text: subject.text } };
    case 'pin-delete':
      return { method: 'DELETE', path: endpointUrl('DELETE /api/pins/{id}', { params: { id: subject.pinId } }) };
    case 'board-delete':
      return { method: 'DELETE', path: endpointUrl('DELETE /api/boards/{id}', { params: { id: subject.boardId } }) };
  }
}

/** Why a write was dropped without being done. */
export type Refusal =
  /** The server answered no (4xx, or 500): `error` says what. */
  | { reason: 'refused'; error: ApiError }
  /** It waited longer than the server remembers keys (LIMITS.idempotencyKeyHours). */
  | { reason: 'expired' }
  /** The outbox already held OUTBOX_CAP entries. */
  | { reason: 'full' };

/** The words of a refusal: what failed (`base`), and why when it was not the server's answer. */
export function refusalWords(base: string, refusal: Refusal): string {
  if (refusal.reason === 'expired') return `${base}: ${MSG.outboxExpired}`;
  if (refusal.reason === 'full') return `${base}: ${MSG.outboxFull}`;
  return base;
}

/** How a write queued by this tab came out, as far as this tab knows now. */
export type Outcome =
  | { status: 'sent'; answer: unknown }
  /** No answer (offline, 502–504): it stays in the outbox and is sent later. */
  | { status: 'waiting' }
  | ({ status: 'refused' } & Refusal)
  /** Taken back before it was sent (cancelWrite). */
  | { status: 'cancelled' }
  /** Another tab sent it: its answer is that tab's (the live updates bring the result). */
  | { status: 'elsewhere' };
