import { sql } from 'kysely';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Board, BoardList } from '../../contract/boards.ts';
import type { Pin } from '../../contract/pins.ts';
import type { User, UserProfile } from '../../contract/users.ts';
import { allPages, ApiClient, signUpUser } from '../support/client.ts';
import { DRAWING_URL } from '../support/demo.ts';
import { useTestServer } from '../support/use-test-server.ts';

// Profiles (docs/profiles.md): a user's pin count is a column kept with the pins, and a profile
// lists the boards the visitor may see — boards are private to their members, so the boards both
// are members of (all of them on one's own profile); signed out, none.

type Person = { client: ApiClient; user: User };
let ann: Person;
let ben: Person;
let cat: Person;

const server = useTestServer();
beforeAll(async () => {
  [ann, ben, cat] = await Promise.all([signUpUser(server.url, 'ann'), signUpUser(server.url, 'ben'), signUpUser(server.url, 'cat')]);
});

const profile = async (username: string) => (await new ApiClient(server.url).get<UserProfile>(`/api/users/lookup?username=${encodeURIComponent(username)}`)).body;
const realCount = async (userId: number) => (await sql<{ n: number }>`select count(*)::int as n from pins where user_id = ${userId}`.execute(server.server.database.db)).rows[0]?.n;

describe('pin count', () => {
  test('the profile carries the pin count, kept as pins are created and deleted, also by 20 at once', async () => {
    expect(await profile(ann.user.username)).toEqual({ id: ann.user.id, username: ann.user.username, pin_count: 0 });
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) => ann.client.post<Pin>('/api/pins/', { title: `Pin ${i}`, imageUrl: DRAWING_URL, description: '' })));
    expect(made.every((res) => res.status === 201)).toBe(true);
    expect((await profile(ann.user.username)).pin_count).toBe(20);
    await Promise.all(made.slice(0, 5).map((res) => ann.client.delete(`/api/pins/${res.body.id}`)));
    expect((await profile(ann.user.username)).pin_count).toBe(15);
    expect(await realCount(ann.user.id)).toBe(15);
  });
});

describe("a profile's boards", () => {
  const boards: Record<string, Board> = {};
  beforeAll(async () => {
    const make = async (who: Person, name: string, members: Person[]) => {
      const created = await who.client.post<Board>('/api/boards/', { name });
      expect(created.status).toBe(201);
      for (const member of members) expect((await who.client.post(`/api/boards/${created.body.id}/members`, { username: member.user.username })).status).toBe(201);
      boards[name] = created.body;
    };
    await make(ann, 'ann alone', []);
    await make(ann, 'ann with ben', [ben]);
    await make(ben, 'ben with ann', [ann]);
    await make(ben, 'ben alone', []);
    await make(cat, 'cat with both', [ann, ben]);
  });

  const names = async (viewer: ApiClient, of: User, limit?: number) => (await allPages<Board>(viewer, `/api/users/${of.id}/boards${limit ? `?limit=${limit}` : ''}`, 'boards')).map((b) => b.name);

  test('a visitor sees the boards both are members of, newest first, as their own role; one page at a time too', async () => {
    expect(await names(ann.client, ben.user)).toEqual(['cat with both', 'ben with ann', 'ann with ben']);
    expect(await names(ben.client, ann.user)).toEqual(['cat with both', 'ben with ann', 'ann with ben']);
    expect(await names(ben.client, ann.user, 1)).toEqual(['cat with both', 'ben with ann', 'ann with ben']);
    expect(await names(cat.client, ben.user)).toEqual(['cat with both']);
    const seen = (await ann.client.get<BoardList>(`/api/users/${ben.user.id}/boards`)).body.boards;
    expect(Object.fromEntries(seen.map((b) => [b.name, b.role]))).toEqual({ 'cat with both': 'collaborator', 'ben with ann': 'collaborator', 'ann with ben': 'owner' });
  });

  test('one’s own profile lists all one’s boards; signed out, none; an unknown user 404, a bad id 400', async () => {
    expect(await names(ann.client, ann.user)).toEqual(['cat with both', 'ben with ann', 'ann with ben', 'ann alone']);
    expect((await new ApiClient(server.url).get<BoardList>(`/api/users/${ann.user.id}/boards`)).body).toEqual({ boards: [], nextCursor: null });
    expect((await ann.client.get(`/api/users/2000000/boards`)).status).toBe(404);
    expect((await ann.client.get(`/api/users/abc/boards`)).status).toBe(400);
    // A cursor belongs to its list: another profile's is refused.
    const page = (await ann.client.get<BoardList>(`/api/users/${ben.user.id}/boards?limit=1`)).body;
    expect(page.nextCursor).not.toBeNull();
    expect((await ann.client.get(`/api/users/${cat.user.id}/boards?cursor=${encodeURIComponent(page.nextCursor ?? '')}`)).status).toBe(400);
  });
});
