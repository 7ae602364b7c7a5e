import type { Board, BoardPin } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import type { ApiClient, ApiResponse } from './client.ts';

// The things tests make before the behaviour they check, made as a user makes them: through the
// API, with the client's session. Each insists on the create's answer (201), so a setup that went
// wrong fails here, named, rather than as a puzzling assertion later. A test that checks a create
// itself calls the API directly.

/** A new account and a client signed in as it (POST /api/auth/signup). */
export { signUpUser } from './client.ts';

function created<T>(what: string, response: ApiResponse<T>): T {
  if (response.status !== 201) throw new Error(`creating ${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

export interface PinFields {
  title?: string;
  /** Defaults to an address nobody serves: the pin is made at once, its image import fails later. */
  imageUrl?: string;
  description?: string;
  sourceUrl?: string;
}

/** A pin the client's user owns (POST /api/pins/); `fields` as a string is its title. */
export async function newPin(client: ApiClient, fields: PinFields | string = {}): Promise<Pin> {
  const body = { title: 'Pin', imageUrl: 'https://a.test/x.png', ...(typeof fields === 'string' ? { title: fields } : fields) };
  return created('a pin', await client.post<Pin>('/api/pins/', body));
}

/** `count` pins titled `${prefix} 0`, `${prefix} 1`, …, made one after another (oldest first). */
export async function newPins(client: ApiClient, count: number, prefix = 'p'): Promise<Pin[]> {
  const pins: Pin[] = [];
  for (let i = 0; i < count; i++) pins.push(await newPin(client, { title: `${prefix} ${i}`, imageUrl: `https://a.test/${prefix}${i}.png` }));
  return pins;
}

/** A board the client's user owns (POST /api/boards/). */
export async function newBoard(client: ApiClient, name = 'Board'): Promise<Board> {
  return created('a board', await client.post<Board>('/api/boards/', { name }));
}

/** The pin on the board (POST /api/boards/{id}/pins). */
export async function addToBoard(client: ApiClient, boardId: number, pinId: number): Promise<BoardPin> {
  return created('a board pin', await client.post<BoardPin>(`/api/boards/${boardId}/pins`, { pin_id: pinId }));
}

/** A comment on the pin (POST /api/comments/pins/{id}/comments). */
export async function newComment(client: ApiClient, pinId: number, text = 'A comment'): Promise<Comment> {
  return created('a comment', await client.post<Comment>(`/api/comments/pins/${pinId}/comments`, { text }));
}
