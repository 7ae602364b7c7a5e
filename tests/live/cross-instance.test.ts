import { expect, test } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import { sameSessionOn, signUpUser } from '../support/client.ts';
import { nextEvent, watch } from '../support/sockets.ts';
import { useTwoInstances } from '../support/use-two-instances.ts';

// Two instances sharing Postgres and Redis (the Socket.IO Redis adapter joins them).
const app = useTwoInstances({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });

test('a socket on instance 2 gets feed, pin-room and user-room events caused by REST calls on instance 1', async () => {
  const { client, user } = await signUpUser(app.one.url);
  // The session made on instance 1 is this socket's user on instance 2.
  const onTwo = await app.socket(app.two, client);
  const anonOnTwo = await app.socket(app.two);

  const pin = (await client.post<Pin>('/api/pins/', { title: 'Across', imageUrl: 'https://a.test/x.png' })).body;
  expect((await nextEvent(anonOnTwo, 'pin:created', (p) => p.pin.id === pin.id)).pin).toEqual(pin);

  expect(await watch(anonOnTwo, { pinIds: [pin.id] })).toEqual({ ok: true });
  const comment = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'via one' })).body;
  expect((await nextEvent(anonOnTwo, 'comment:created')).comment).toEqual(comment);
  await client.post('/api/favorites/', { pin_id: pin.id });
  expect(await nextEvent(anonOnTwo, 'pin:likes')).toEqual({ pinId: pin.id, likesCount: 1, version: 1, seq: expect.any(Number) });

  const board = (await client.post<Board>('/api/boards/', { name: 'Across instances' })).body;
  expect(await nextEvent(onTwo, 'board:created')).toEqual({ board, seq: expect.any(Number) });
  expect(board.user_id).toBe(user.id);
  expect(anonOnTwo.received.some((r) => r.event === 'board:created')).toBe(false);
});

test("logout through instance 1 disconnects the session's socket on instance 2", async () => {
  const { client } = await signUpUser(app.one.url);
  const onTwo = await app.socket(app.two, client);
  const gone = new Promise<void>((resolve) => onTwo.once('disconnect', () => resolve()));
  await client.get('/api/auth/logout');
  await nextEvent(onTwo, 'session:ended');
  await gone;
  expect(onTwo.connected).toBe(false);
  // A client on instance 2 with the old cookie is anonymous now.
  const stale = sameSessionOn(app.two.url, client);
  expect((await stale.get<{ user: unknown }>('/api/auth/')).body.user).toBeNull();
});
