import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import type { TokenCreated } from '../../contract/tokens.ts';
import { signUpUser } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

// docs/api-by-script.md promises that a REST-only script can do everything with the cookie + X-XSRF-TOKEN
// dance it describes; scripts/rest-walkthrough.sh is that script, run here with curl.
const server = useTestServer();

test('scripts/rest-walkthrough.sh signs up, pins, favorites, fills a board, comments and walks a cursor', async () => {
  const { stdout } = await promisify(execFile)('bash', ['scripts/rest-walkthrough.sh'], {
    env: { ...process.env, BASE: server.url },
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const [user, pin, favorite, board, boardPin, comment, boards, walk] = lines;
  expect(user).toMatchObject({ id: expect.any(Number), username: expect.stringMatching(/^script/) });
  expect(pin).toMatchObject({ title: 'From a script', user_id: user?.id });
  expect(favorite).toMatchObject({ pin_id: pin?.id, likes_count: 1 });
  expect(board).toMatchObject({ name: 'Scripted', pins: [] });
  expect(boardPin).toMatchObject({ id: pin?.id });
  expect(comment).toMatchObject({ text: 'Nice one', pin_id: pin?.id });
  expect(boards).toEqual({
    boards: [{ ...board, pin_count: 1, pins: [{ id: pin?.id, title: 'From a script', image_url: 'https://example.com/cat.jpg', image: null, visibility: 'public' }] }],
    nextCursor: null,
  });
  // Three pins, two a page: the walk follows nextCursor to the end.
  expect(walk).toEqual({ pages: 2, walked: 3 });
});

test('scripts/token-walkthrough.sh does the same with a personal access token alone', async () => {
  const { client, user } = await signUpUser(server.url, 'tokscript');
  const { body } = await client.post<TokenCreated>('/api/tokens', { name: 'walkthrough', scope: 'write' });
  const { stdout } = await promisify(execFile)('bash', ['scripts/token-walkthrough.sh'], {
    env: { ...process.env, BASE: server.url, TOKEN: body.secret },
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const [me, pin, favorite, board, boardPin, comment, lookup, walk] = lines;
  expect(me).toEqual({ user, site: { visibility: 'public', signups: 'open' } });
  expect(pin).toMatchObject({ title: 'From a token', user_id: user.id, source_url: 'https://example.com/articles/cats' });
  expect(favorite).toMatchObject({ pin_id: pin?.id, likes_count: 1 });
  expect(board).toMatchObject({ name: 'Tokened', user_id: user.id });
  expect(boardPin).toMatchObject({ id: pin?.id });
  expect(comment).toMatchObject({ text: 'Nice one', pin_id: pin?.id, user_id: user.id });
  expect(lookup).toEqual({ pins: [{ ...pin, likes_count: 1 }] });
  expect(walk).toEqual({ pages: 2, walked: 3 });
});

test('scripts/token-walkthrough.sh stops at the first refusal (a read token cannot pin)', async () => {
  const { client } = await signUpUser(server.url, 'tokscriptro');
  const { body } = await client.post<TokenCreated>('/api/tokens', { name: 'read only', scope: 'read' });
  const run = promisify(execFile)('bash', ['scripts/token-walkthrough.sh'], { env: { ...process.env, BASE: server.url, TOKEN: body.secret } });
  await expect(run).rejects.toMatchObject({ stdout: expect.stringContaining('This token is read-only') });
});
