import { readHead } from '../../backend/changes/changes.service.ts';
import { beforeAll, expect, test } from 'vitest';
import { afterPage, type ChangeEntry, type ChangesAnswer } from '../../contract/changes.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

// GET /api/changes keeps a day of changes for anyone, anonymous readers included. Text that an
// edit replaced or a deletion removed must not stay readable there (docs/change-log.md): earlier rows
// of an edited pin or comment carry its new text, a deletion takes its entity's rows (and a pin's,
// its comments') with it and is logged by id. A reader replaying the log still ends where the
// server is.

let anonymous: ApiClient;
const server = useTestServer();
beforeAll(async () => {
  anonymous = new ApiClient(server.url);
});

const head = () => readHead(server.server.database.db);

async function pullAll(client: ApiClient, since: number): Promise<ChangeEntry[]> {
  const changes: ChangeEntry[] = [];
  for (let cursor = since; ;) {
    const answer = (await client.get<ChangesAnswer>(`/api/changes?since=${cursor}`)).body;
    if ('reset' in answer) throw new Error(`unexpected reset from ${cursor}`);
    changes.push(...answer.changes);
    const next = afterPage(answer);
    cursor = next.cursor;
    if (!next.more) return changes;
  }
}

test("an edited pin's earlier rows carry its new text: the old title and description are gone from the log", async () => {
  const start = await head();
  const { client } = await signUpUser(server.url);
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Draft title 4471', imageUrl: 'https://a.test/x.png', description: 'I live at 12 Elm Street' })).body;
  await client.put(`/api/pins/${pin.id}`, { title: 'Second title 4471', description: 'Moved' });
  const edited = (await client.put<Pin>(`/api/pins/${pin.id}`, { title: 'Final title 4471', description: 'Nothing here' })).body;
  const changes = await pullAll(anonymous, start);
  const text = JSON.stringify(changes);
  for (const old of ['Draft title 4471', '12 Elm Street', 'Second title 4471', 'Moved']) expect(text).not.toContain(old);
  expect(changes.map((c) => c.event)).toEqual(['pin:created', 'pin:updated', 'pin:updated']);
  // The creation is still there (a reader who missed it learns the pin exists), with today's text.
  expect(changes[0]?.data).toEqual({ pin: { ...pin, title: 'Final title 4471', description: 'Nothing here' } });
  expect(changes[2]?.data).toEqual({ pin: edited });
});

test("a deleted pin leaves nothing of its text or its comments' text: the log says only its id", async () => {
  const start = await head();
  const owner = await signUpUser(server.url);
  const visitor = await signUpUser(server.url);
  const pin = (await owner.client.post<Pin>('/api/pins/', { title: 'Doomed pin 5582', imageUrl: 'https://a.test/doomed.png', description: 'Doomed text 5582' })).body;
  await visitor.client.post(`/api/comments/pins/${pin.id}/comments`, { text: 'Doomed comment 5582' });
  expect((await owner.client.delete(`/api/pins/${pin.id}`)).status).toBe(200);
  for (const reader of [anonymous, owner.client, visitor.client]) {
    const changes = await pullAll(reader, start);
    expect(JSON.stringify(changes)).not.toContain('5582');
    expect(changes).toEqual([{ seq: expect.any(Number), event: 'pin:deleted', data: { pinId: pin.id } }]);
  }
});

test("an edited comment's earlier rows carry its new text; a deleted comment leaves only its ids", async () => {
  const start = await head();
  const { client } = await signUpUser(server.url);
  const pin = (await client.post<Pin>('/api/pins/', { title: 'Talked about', imageUrl: 'https://a.test/t.png' })).body;
  const comment = (await client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: 'First words 6693' })).body;
  const edited = (await client.put<Comment>(`/api/comments/${comment.id}`, { text: 'Second words 6693' })).body;
  let changes = await pullAll(anonymous, start);
  expect(JSON.stringify(changes)).not.toContain('First words 6693');
  expect(changes.map((c) => c.event)).toEqual(['pin:created', 'comment:created', 'comment:updated']);
  expect(changes[1]?.data).toEqual({ comment: { ...comment, text: 'Second words 6693' } });
  expect(changes[2]?.data).toEqual({ comment: edited });
  await client.delete(`/api/comments/${comment.id}`);
  changes = await pullAll(anonymous, start);
  expect(JSON.stringify(changes)).not.toContain('6693');
  expect(changes.map((c) => c.event)).toEqual(['pin:created', 'comment:deleted']);
  expect(changes[1]?.data).toEqual({ commentId: comment.id, pinId: pin.id });
});

test('a reader replaying the log from before ends with what the server shows, as it did before the rows were rewritten', async () => {
  const start = await head();
  const [a, b] = await Promise.all([signUpUser(server.url), signUpUser(server.url)]);
  const pins: Pin[] = [];
  for (let i = 0; i < 4; i++) pins.push((await a.client.post<Pin>('/api/pins/', { title: `Replay ${i}`, imageUrl: 'https://a.test/r.png', description: `v1 ${i}` })).body);
  const comments: Comment[] = [];
  for (const pin of pins) comments.push((await b.client.post<Comment>(`/api/comments/pins/${pin.id}/comments`, { text: `said on ${pin.id}` })).body);
  await a.client.put(`/api/pins/${pins[0]!.id}`, { title: 'Replay 0 edited', description: 'v2' });
  await b.client.put(`/api/comments/${comments[1]!.id}`, { text: 'said again' });
  await a.client.delete(`/api/pins/${pins[2]!.id}`);
  await b.client.delete(`/api/comments/${comments[3]!.id}`);
  await a.client.put(`/api/pins/${pins[1]!.id}`, { title: 'Replay 1 edited', description: 'v2' });

  // Applied as the web client does (frontend/live/apply.ts): upserts keep the newer copy by updated_at.
  const shownPins = new Map<number, { title: string; description: string; updated_at: string }>();
  const shownComments = new Map<number, { text: string; pin_id: number; updated_at: string }>();
  const gone = new Set<number>();
  for (const { event, data } of await pullAll(anonymous, start)) {
    if (event === 'pin:created' || event === 'pin:updated') {
      const known = shownPins.get(data.pin.id);
      if (!gone.has(data.pin.id) && !(known && known.updated_at > data.pin.updated_at)) shownPins.set(data.pin.id, data.pin);
    } else if (event === 'pin:deleted') {
      // A deleted pin takes its comments with it, as on the server.
      gone.add(data.pinId);
      shownPins.delete(data.pinId);
      for (const [id, comment] of shownComments) if (comment.pin_id === data.pinId) shownComments.delete(id);
    } else if (event === 'comment:created' || event === 'comment:updated') {
      const known = shownComments.get(data.comment.id);
      if (!gone.has(data.comment.pin_id) && !(known && known.updated_at > data.comment.updated_at)) shownComments.set(data.comment.id, data.comment);
    } else if (event === 'comment:deleted') shownComments.delete(data.commentId);
  }
  for (const pin of pins) {
    const res = await anonymous.get<Pin>(`/api/pins/${pin.id}`);
    if (res.status === 404) expect(shownPins.has(pin.id)).toBe(false);
    else expect(shownPins.get(pin.id)).toMatchObject({ title: res.body.title, description: res.body.description });
    const listed = await anonymous.get<{ comments: Comment[] }>(`/api/comments/pins/${pin.id}/comments`);
    for (const comment of listed.status === 200 ? listed.body.comments : []) expect(shownComments.get(comment.id)?.text).toBe(comment.text);
  }
  const kept = [...shownComments.keys()].filter((id) => comments.some((c) => c.id === id)).sort();
  expect(kept).toEqual([comments[0]!.id, comments[1]!.id].sort());
});
