import { beforeAll, describe, expect, test } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

let pin: Pin;
const server = useTestServer();
beforeAll(async () => {
  const { client } = await signUpUser(server.url);
  pin = (await client.post<Pin>('/api/pins/', { title: 'Talk about me', imageUrl: 'https://a.test/x.png' })).body;
});

const path = () => `/api/comments/pins/${pin.id}/comments`;

describe('comments', () => {
  test('post → 201 comment with author name; public list newest first', async () => {
    const a = await signUpUser(server.url);
    const b = await signUpUser(server.url);
    const first = await a.client.post<Comment>(path(), { text: '  First!  ' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      text: 'First!',
      pin_id: pin.id,
      user_id: a.user.id,
      username: a.user.username,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = (await b.client.post<Comment>(path(), { text: 'Second' })).body;
    const list = await new ApiClient(server.url).get<CommentList>(path());
    expect(list.status).toBe(200);
    const ids = list.body.comments.map((c) => c.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.body.id));
  });

  test('one comment per user and pin → 409 with the SPEC message', async () => {
    const { client } = await signUpUser(server.url);
    expect((await client.post(path(), { text: 'once' })).status).toBe(201);
    const res = await client.post<ErrorBody>(path(), { text: 'twice' });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual(['You have already commented on this pin.']);
  });

  test('blank → "Text is required"; too long → 400; signed out → 401; unknown pin → 404', async () => {
    const { client } = await signUpUser(server.url);
    const blank = await client.post<ErrorBody>(path(), { text: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(['Text is required']);
    expect(blank.body.fields).toEqual({ text: 'Text is required' });
    expect((await client.post(path(), { text: 'x'.repeat(1001) })).status).toBe(400);
    expect((await new ApiClient(server.url).post(path(), { text: 'hi' })).status).toBe(401);
    expect((await client.post('/api/comments/pins/999999/comments', { text: 'hi' })).status).toBe(404);
    expect((await client.get('/api/comments/pins/999999/comments')).status).toBe(404);
  });

  test('author edits and deletes; others get 403 and nothing changes', async () => {
    const author = await signUpUser(server.url);
    const other = await signUpUser(server.url);
    const comment = (await author.client.post<Comment>(path(), { text: 'draft' })).body;
    expect((await other.client.put(`/api/comments/${comment.id}`, { text: 'hijack' })).status).toBe(403);
    expect((await other.client.delete(`/api/comments/${comment.id}`)).status).toBe(403);
    const edited = await author.client.put<Comment>(`/api/comments/${comment.id}`, { text: 'final' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: comment.id, text: 'final', created_at: comment.created_at });
    expect((await author.client.put<ErrorBody>(`/api/comments/${comment.id}`, { text: '' })).body.errors).toEqual(['Text is required']);
    const list = (await author.client.get<CommentList>(path())).body.comments;
    expect(list.find((c) => c.id === comment.id)?.text).toBe('final');
    const deleted = await author.client.delete(`/api/comments/${comment.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Comment deleted', id: comment.id, pin_id: pin.id });
    expect((await author.client.get<CommentList>(path())).body.comments.some((c) => c.id === comment.id)).toBe(false);
    expect((await author.client.delete(`/api/comments/${comment.id}`)).status).toBe(404);
    // Deleting frees the slot: the author may comment again.
    expect((await author.client.post(path(), { text: 'again' })).status).toBe(201);
  });

  test('signed out edit/delete → 401', async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.put('/api/comments/1', { text: 'x' })).status).toBe(401);
    expect((await anon.delete('/api/comments/1')).status).toBe(401);
  });
});
