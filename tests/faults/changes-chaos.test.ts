import { beforeAll, expect, test } from 'vitest';
import type { ChangesAnswer } from '../../contract/changes.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite, FavoriteList } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import { createChangeTracker, type ChangeTracker } from '../../frontend/live/changes.ts';
import { ApiClient, allPages } from '../support/client.ts';
import { BOUNDS, formatMs, timeUntil } from '../support/eventually.ts';
import type { TestSocket } from '../support/sockets.ts';
import { useFaultCluster } from '../support/use-fault-cluster.ts';
import { sameSessionOn, signUpMany, sleep } from './helpers.ts';

// The change log (docs/change-log.md) under chaos: two instances on one Postgres and Redis, writers
// favoriting and commenting on a few pins through nginx and straight on each instance, and
// clients that apply socket events and catch up through GET /api/changes with the web client's
// own tracker (frontend/live/changes.ts). Meanwhile one client goes offline for a while, an
// instance is killed (and replaced) and Redis restarts. At the end every client's state, as it
// applied it, must equal the server's REST snapshot — likes counts, comments and the signed-in
// client's favorites, compared in full — and no seq may have been applied twice.

const faults = useFaultCluster({ env: { CHANGES_HEAD_INTERVAL_SECONDS: '1' } });

const PINS = 3;
const WRITERS = 6;

/** What a client shows, built only from the events it applied. */
interface Model {
  likes: Map<number, { count: number; version: number }>;
  comments: Map<number, { pinId: number; text: string; updatedAt: string }>;
  goneComments: Set<number>;
  favorites: Set<number>;
  goneFavorites: Set<number>;
}

interface ChaosClient {
  name: string;
  socket: TestSocket;
  model: Model;
  tracker: ChangeTracker;
  /** How often each seq was applied. */
  applications: Map<number, number>;
  api: ApiClient;
}

function applyTo(model: Model, name: string, payload: Record<string, unknown>): void {
  switch (name) {
    case 'pin:likes': {
      const { pinId, likesCount, version } = payload as { pinId: number; likesCount: number; version: number };
      const known = model.likes.get(pinId);
      if (!known || version > known.version) model.likes.set(pinId, { count: likesCount, version });
      return;
    }
    case 'comment:created':
    case 'comment:updated': {
      const { comment } = payload as { comment: Comment };
      const known = model.comments.get(comment.id);
      if (model.goneComments.has(comment.id) || (known && known.updatedAt > comment.updated_at)) return;
      model.comments.set(comment.id, { pinId: comment.pin_id, text: comment.text, updatedAt: comment.updated_at });
      return;
    }
    case 'comment:deleted': {
      const { commentId } = payload as { commentId: number };
      model.goneComments.add(commentId);
      model.comments.delete(commentId);
      return;
    }
    case 'favorite:added': {
      const { favorite } = payload as { favorite: Favorite };
      if (!model.goneFavorites.has(favorite.id)) model.favorites.add(favorite.id);
      return;
    }
    case 'favorite:removed': {
      const { favoriteId } = payload as { favoriteId: number };
      model.goneFavorites.add(favoriteId);
      model.favorites.delete(favoriteId);
      return;
    }
    default:
  }
}

/** A client as the web client runs: watch the pins on every connect, then catch up. */
function chaosClient(name: string, socket: TestSocket, api: ApiClient, pinIds: number[], initial: Model): ChaosClient {
  const applications = new Map<number, number>();
  const model = initial;
  const tracker = createChangeTracker({
    apply(event, payload) {
      const { seq } = payload as { seq?: number };
      if (seq !== undefined) applications.set(seq, (applications.get(seq) ?? 0) + 1);
      applyTo(model, event, payload as Record<string, unknown>);
    },
    async fetchChanges(since) {
      const res = await api.get<ChangesAnswer>(`/api/changes?since=${since}`);
      if (res.status !== 200) throw new Error(`GET /api/changes → ${res.status}`);
      return res.body;
    },
    // Not expected here (the log keeps a day): a full refetch would hide lost updates.
    refetchScreens: () => Promise.reject(new Error(`${name}: the log answered reset`)),
    retryMs: 200,
  });
  const watch = () => new Promise<unknown>((resolve) => socket.emit('pins:watch', { pinIds }, resolve));
  // The first connect happened in connectSocket: a fresh page. Then every connect is a reconnect.
  tracker.connected(false, () => true, watch());
  for (const { event, payload } of socket.received) tracker.event(event, payload);
  socket.onAny((event: string, payload: unknown) => tracker.event(event, payload));
  socket.on('connect', () => tracker.connected(true, () => true, watch()));
  return { name, socket, model, tracker, applications, api };
}

/** The server's state as REST shows it, in a client's model's terms. */
async function snapshot(api: ApiClient, pinIds: number[], signedIn: boolean) {
  const likes: Record<number, number> = {};
  const comments: Record<number, { pinId: number; text: string }> = {};
  for (const id of pinIds) {
    const pin = await api.get<Pin>(`/api/pins/${id}`);
    if (pin.status !== 200) throw new Error(`GET /api/pins/${id} → ${pin.status}`);
    likes[id] = pin.body.likes_count;
    for (const comment of await allPages<Comment>(api, `/api/comments/pins/${id}/comments`, 'comments')) {
      comments[comment.id] = { pinId: comment.pin_id, text: comment.text };
    }
  }
  const favorites = signedIn ? (await allPages<FavoriteList['pins'][number]>(api, '/api/favorites/', 'pins')).map((f) => f.id).sort((a, b) => a - b) : [];
  return { likes, comments, favorites };
}

function shown(model: Model, pinIds: number[]) {
  const likes: Record<number, number> = {};
  for (const id of pinIds) likes[id] = model.likes.get(id)?.count ?? 0;
  const comments: Record<number, { pinId: number; text: string }> = {};
  for (const [id, c] of model.comments) comments[id] = { pinId: c.pinId, text: c.text };
  return { likes, comments, favorites: [...model.favorites].sort((a, b) => a - b) };
}

let scene: Awaited<ReturnType<typeof chaos>>;
beforeAll(async () => {
  scene = await chaos();
}, 300_000);

async function chaos() {
  const { cluster } = faults;
  const [first, second] = cluster.apps;
  if (!first || !second) throw new Error('two instances expected');
  const [owner, watcher, ...writers] = await signUpMany(cluster.url, WRITERS + 2, 'chaos');
  if (!owner || !watcher) throw new Error('users expected');
  const pins: number[] = [];
  for (let i = 0; i < PINS; i++) pins.push((await owner.client.post<Pin>('/api/pins/', { title: `chaos ${i}`, imageUrl: 'https://a.test/c.png' })).body.id);

  // Clients start from a snapshot taken while nothing is written (a fresh page's load).
  const empty = (): Model => ({ likes: new Map(), comments: new Map(), goneComments: new Set(), favorites: new Set(), goneFavorites: new Set() });
  const clients: ChaosClient[] = [];
  const open = async (name: string, baseUrl: string, api: ApiClient, signedIn: boolean) => {
    const socket = await faults.socket(baseUrl, signedIn ? api : undefined);
    const client = chaosClient(name, socket, api, pins, empty());
    clients.push(client);
    return client;
  };
  await open('signed-in via nginx', cluster.url, sameSessionOn(cluster.url, watcher.client), true);
  await open('anonymous on app1', first.url, new ApiClient(cluster.url), false);
  const offline = await open('anonymous on app2 (goes offline)', second.url, new ApiClient(cluster.url), false);
  await open('signed-in on app2', second.url, sameSessionOn(cluster.url, watcher.client), true);
  await timeUntil(BOUNDS.eventMs, () => clients.every((c) => c.tracker.state().cursor !== undefined));
  for (const client of clients) {
    const base = await snapshot(client.api, pins, client.name.startsWith('signed-in'));
    for (const id of pins) client.model.likes.set(id, { count: base.likes[id] ?? 0, version: 0 });
  }

  // Writers: favorite toggles and comment create/edit/delete, through nginx and on each instance.
  let writing = true;
  let writes = 0;
  let failures = 0;
  const bases = [cluster.url, first.url, second.url];
  const loops = [...writers, watcher].map(async (user, i) => {
    const favorites = new Map<number, number>();
    const comments = new Map<number, number>();
    for (let round = 0; writing; round++) {
      const api = sameSessionOn(bases[(i + round) % bases.length] as string, user.client);
      const pin = pins[(i + round) % pins.length] as number;
      try {
        const fav = favorites.get(pin);
        if (round % 2 === 0) {
          if (fav === undefined) {
            const res = await api.post<Favorite>('/api/favorites/', { pin_id: pin });
            if (res.status === 201) favorites.set(pin, res.body.id);
          } else if ((await api.delete(`/api/favorites/${fav}`)).status < 500) favorites.delete(pin);
        } else {
          const comment = comments.get(pin);
          if (comment === undefined) {
            const res = await api.post<Comment>(`/api/comments/pins/${pin}/comments`, { text: `by ${i}, round ${round}` });
            if (res.status === 201) comments.set(pin, res.body.id);
          } else if (round % 3 === 0) {
            if ((await api.delete(`/api/comments/${comment}`)).status < 500) comments.delete(pin);
          } else await api.put(`/api/comments/${comment}`, { text: `edited by ${i}, round ${round}` });
        }
        writes += 1;
      } catch {
        failures += 1; // an instance being killed: the write may or may not have committed
        await sleep(50);
      }
    }
  });

  await sleep(1_500);
  // A client goes offline for a while.
  offline.socket.disconnect();
  await sleep(3_000);
  offline.socket.connect();
  await sleep(1_000);
  // An instance dies with its sockets; a fresh one takes its port.
  second.child.kill('SIGKILL');
  await sleep(1_500);
  await cluster.replaceApp(1);
  await sleep(1_000);
  // Redis restarts: the adapter drops what is published meanwhile.
  await cluster.redis.stop();
  await sleep(2_000);
  await cluster.redis.start();
  await sleep(2_000);
  writing = false;
  await Promise.all(loops);
  const stoppedAt = performance.now();

  // Every client converges on the server's state.
  const expected = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
  for (const client of clients) expected.set(client.name, await snapshot(client.api, pins, client.name.startsWith('signed-in')));
  const convergedMs = await timeUntil(BOUNDS.eventMs * 2, () => clients.every((c) => JSON.stringify(shown(c.model, pins)) === JSON.stringify(expected.get(c.name))), stoppedAt);
  const head = Number((await cluster.query<{ seq: string }>('select max(seq) as seq from changes'))[0]?.seq);
  console.log(
    `changes chaos: ${writes} writes (${failures} failed), log head ${head}, converged ${formatMs(convergedMs, BOUNDS.eventMs * 2)} after the writers stopped; ` +
      clients.map((c) => `${c.name}: ${c.applications.size} seqs applied`).join('; '),
  );
  return { clients, expected, pins, convergedMs, writes };
}

test('after an offline client, an instance kill and a Redis restart, every client shows the server state: nothing lost', () => {
  expect(scene.writes).toBeGreaterThan(20);
  for (const client of scene.clients) {
    expect(shown(client.model, scene.pins), client.name).toEqual(scene.expected.get(client.name));
  }
});

test('no change was applied twice', () => {
  for (const client of scene.clients) {
    const twice = [...client.applications].filter(([, n]) => n > 1).map(([seq]) => seq);
    expect(twice, client.name).toEqual([]);
  }
});
