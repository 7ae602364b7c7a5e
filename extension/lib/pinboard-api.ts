// The Pinboard REST calls the extension makes, each with the connection's write token
// (`Authorization: Bearer`: no cookie, no anti-forgery header). Runs in the background only.
// Wire types come from the app's own contract/.
import type { Board, BoardList } from '../../contract/boards.ts';
import type { DuplicatePin, ImageUploaded, PictureChecked } from '../../contract/duplicates.ts';
import { IMAGE_LIMITS } from '../../contract/limits.ts';
import type { PinLookup } from '../../contract/pin-lookup.ts';
import type { Pin } from '../../contract/pins.ts';
import type { SessionBody } from '../../contract/users.ts';

/** An answer of 400 or above (status 0: no answer at all), with the server's message. */
export class PinboardError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'PinboardError';
    this.status = status;
  }
  /** The token was refused (revoked, expired, wrong server): the user must connect again. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export interface PinDraft {
  title: string;
  imageUrl: string;
  description: string;
  sourceUrl: string | null;
  /** The board it is made in (one call: private when the board is, as the server decides). */
  boardId?: number | undefined;
  /** The pin's alt text (sent only when given). */
  altText?: string | undefined;
}

export class PinboardApi {
  readonly server: string;
  readonly #token: string;

  constructor(server: string, token: string) {
    this.server = server;
    this.#token = token;
  }

  async #call<T>(method: string, path: string, body?: BodyInit | object, headers: Record<string, string> = {}): Promise<T> {
    const init: RequestInit = { method, headers: { Accept: 'application/json', Authorization: `Bearer ${this.#token}`, ...headers }, credentials: 'omit' };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(new URL(path, this.server), init);
    } catch {
      throw new PinboardError(0, 'The Pinboard server could not be reached.');
    }
    const text = await response.text();
    let raw: unknown;
    try {
      raw = text ? JSON.parse(text) : undefined;
    } catch {
      raw = undefined;
    }
    if (!response.ok) {
      const message = raw && typeof raw === 'object' && typeof (raw as { message?: unknown }).message === 'string' ? (raw as { message: string }).message : `The server answered ${response.status}.`;
      throw new PinboardError(response.status, message);
    }
    return raw as T;
  }

  /** Who the token acts as (null: the server does not know it). */
  async whoAmI(): Promise<string | null> {
    const answer = await this.#call<SessionBody>('GET', '/api/auth/');
    return answer?.user?.username ?? null;
  }

  /** The picture stored, and the user's pins of the same picture (docs/duplicates.md). */
  async uploadImage(bytes: Blob, fileName: string): Promise<ImageUploaded> {
    const form = new FormData();
    form.append(IMAGE_LIMITS.uploadField, bytes, fileName);
    const answer = await this.#call<ImageUploaded>('POST', '/api/images/', form);
    return { image: answer.image, duplicates: Array.isArray(answer.duplicates) ? answer.duplicates : [] };
  }

  /** The user's pins of the picture at `url`, which the server reads without storing it. */
  async checkPicture(url: string): Promise<DuplicatePin[]> {
    return (await this.#call<PictureChecked>('GET', `/api/images/duplicates?${new URLSearchParams({ url })}`)).duplicates;
  }

  /** Sent with an Idempotency-Key and repeated once (same key) when the answer was lost. */
  async createPin(draft: PinDraft): Promise<Pin> {
    const key = crypto.randomUUID();
    const body = {
      title: draft.title,
      imageUrl: draft.imageUrl,
      description: draft.description,
      ...(draft.sourceUrl ? { sourceUrl: draft.sourceUrl } : {}),
      ...(draft.boardId !== undefined ? { boardId: draft.boardId } : {}),
      ...(draft.altText ? { altText: draft.altText } : {}),
    };
    try {
      return await this.#call<Pin>('POST', '/api/pins/', body, { 'Idempotency-Key': key });
    } catch (error) {
      const lost = error instanceof PinboardError && (error.status === 0 || (error.status >= 502 && error.status <= 504));
      if (!lost) throw error;
      return this.#call<Pin>('POST', '/api/pins/', body, { 'Idempotency-Key': key });
    }
  }

  deletePin(id: number): Promise<unknown> {
    return this.#call('DELETE', `/api/pins/${id}`);
  }

  listBoards(cursor: string | null, limit = 100): Promise<BoardList> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return this.#call<BoardList>('GET', `/api/boards/?${query}`);
  }

  createBoard(name: string): Promise<Board> {
    return this.#call<Board>('POST', '/api/boards/', { name });
  }

  /** The user's pins saved from a page (at most 50). */
  lookup(sourceUrl: string): Promise<PinLookup> {
    return this.#call<PinLookup>('GET', `/api/pins/lookup?${new URLSearchParams({ sourceUrl })}`);
  }
}
