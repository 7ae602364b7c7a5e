import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadScript } from '../redis.ts';
import { memberOf, type PresenceEntry, type PresenceGroup, type PresenceKey, type PresenceState, type PresenceStore, userIdsOf } from './presence-store.ts';

// Presence in Redis, shared by every instance (docs/presence.md). Per pin or board:
//   <prefix>presence:pin:<id>            ZSET member (`u:<userId>` | `s:<socketId>`) → expiry (ms)
//   <prefix>presence:pin:<id>:u:<userId>  ZSET socket id → expiry: that user's present tabs
// One Lua script per event (join, leave, heartbeat, read), each a single round trip that also
// drops expired members and answers the count (and, for boards, the present users). Expiries come
// from Redis' own clock (TIME), so instances with skewed clocks agree. Every key also carries a
// PEXPIRE of the TTL, so a pin nobody looks at any more leaves nothing behind. On a Redis Cluster a
// script's keys must share a hash slot: the pin or board is a `{…}` tag (`presence:{pin:<id>}` and
// `presence:{pin:<id>}:u:<userId>`), and a heartbeat call holds one pin or board's keys only.

/** Shared head of the scripts: the clock, the TTL, and the answer {count, members?}. */
const HEAD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local listMax = tonumber(ARGV[2])
local function answer()
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local count = redis.call('ZCARD', KEYS[1])
  if listMax > 0 and count > 0 then return {count, redis.call('ZRANGE', KEYS[1], 0, listMax - 1)} end
  return {count, {}}
end
`;

/** KEYS[1] members, KEYS[2] the user's sockets (signed in only); ARGV[3] member, ARGV[4] socket id. */
const JOIN = `${HEAD}
local expiry = now + ttl
redis.call('ZADD', KEYS[1], expiry, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ttl)
if KEYS[2] then
  redis.call('ZADD', KEYS[2], expiry, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return answer()
`;

/**
 * As JOIN. A user stays a member while any other socket of theirs is present (on any instance),
 * with the expiry of the latest of them.
 */
const LEAVE = `${HEAD}
if KEYS[2] then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local latest = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  if latest[2] then
    redis.call('ZADD', KEYS[1], latest[2], ARGV[3])
  else
    redis.call('ZREM', KEYS[1], ARGV[3])
  end
else
  redis.call('ZREM', KEYS[1], ARGV[3])
end
return answer()
`;

/**
 * This instance's entries of many keys in one call. ARGV from 2 on, per key: the index in KEYS of
 * its members key, its list size (0: count only), its number of entries, then per entry a triple
 * (member, socket id, index in KEYS of the user's sockets key, 0 for an anonymous socket).
 * Re-adds what a Redis restart lost. Answers {count, members} per key, in order.
 */
const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local expiry = now + ttl
local cleaned = {}
local answers = {}
local i = 2
while i <= #ARGV do
  local key = KEYS[tonumber(ARGV[i])]
  local listMax = tonumber(ARGV[i + 1])
  local n = tonumber(ARGV[i + 2])
  i = i + 3
  for j = 1, n do
    redis.call('ZADD', key, expiry, ARGV[i])
    local k = tonumber(ARGV[i + 2])
    if k > 0 then
      redis.call('ZADD', KEYS[k], expiry, ARGV[i + 1])
      if not cleaned[k] then
        cleaned[k] = true
        redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
        redis.call('PEXPIRE', KEYS[k], ttl)
      end
    end
    i = i + 3
  end
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local count = redis.call('ZCARD', key)
  if listMax > 0 and count > 0 then
    answers[#answers + 1] = {count, redis.call('ZRANGE', key, 0, listMax - 1)}
  else
    answers[#answers + 1] = {count, {}}
  end
end
return answers
`;

const READ = `${HEAD}
return answer()
`;

interface Script {
  source: string;
  sha: string;
}

const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const SCRIPTS = { join: script(JOIN), leave: script(LEAVE), heartbeat: script(HEARTBEAT), read: script(READ) };

/** Heartbeat entries per script call: bounds one call's size (and how long it holds Redis, ~1 ms). */
const HEARTBEAT_CHUNK = 500;

export class RedisPresenceStore implements PresenceStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #listMax: number;

  /** `prefix` keeps deployments (and test servers) sharing one Redis apart: the SOCKET_CHANNEL. */
  constructor(redis: Redis, options: { prefix: string; ttlMs: number; listMax: number }) {
    this.#redis = redis;
    this.#prefix = options.prefix;
    this.#ttlMs = options.ttlMs;
    this.#listMax = options.listMax;
    // Loaded up front (and again after each reconnect: a restarted Redis has forgotten them), so
    // a burst of joins does not meet NOSCRIPT and send every script's source.
    const load = () => {
      for (const code of Object.values(SCRIPTS)) loadScript(redis, code.source); // EVAL stands in
    };
    load();
    redis.on('ready', load);
  }

  join(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    return this.#run(SCRIPTS.join, key, this.#entryKeys(key, entry), [memberOf(entry), entry.socketId]);
  }

  leave(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    return this.#run(SCRIPTS.leave, key, this.#entryKeys(key, entry), [memberOf(entry), entry.socketId]);
  }

  /** Script calls of at most HEARTBEAT_CHUNK entries each (a key with more is split; its last answer counts). */
  async refresh(batch: readonly PresenceGroup[]): Promise<PresenceState[]> {
    const states: PresenceState[] = [];
    let call = new HeartbeatCall();
    const calls: Array<Promise<void>> = [];
    const flush = () => {
      const pending = call;
      call = new HeartbeatCall();
      calls.push(
        this.#script(SCRIPTS.heartbeat, pending.keys, [String(this.#ttlMs), ...pending.args]).then((reply) => {
          if (!Array.isArray(reply)) throw new Error('Unexpected presence heartbeat reply.');
          reply.forEach((answer, n) => {
            states[pending.groups[n] as number] = parseReply(answer);
          });
        }),
      );
    };
    batch.forEach(({ key, entries }, index) => {
      const listMax = key.kind === 'board' ? this.#listMax : 0;
      for (let from = 0; from < entries.length || from === 0; from += HEARTBEAT_CHUNK) {
        const part = entries.slice(from, from + HEARTBEAT_CHUNK);
        const otherTarget = this.#redis.isCluster && call.groups.length > 0 && call.groups.at(-1) !== index;
        if (otherTarget || (call.entries + part.length > HEARTBEAT_CHUNK && call.entries > 0)) flush();
        call.add(index, this.#membersKey(key), listMax, part, (userId) => this.#userKey(key, userId));
      }
    });
    if (call.groups.length) flush();
    await Promise.all(calls);
    return states;
  }

  read(key: PresenceKey): Promise<PresenceState> {
    return this.#run(SCRIPTS.read, key, [this.#membersKey(key)], []);
  }

  #membersKey(key: PresenceKey): string {
    return this.#redis.isCluster ? `${this.#prefix}presence:{${key.kind}:${key.id}}` : `${this.#prefix}presence:${key.kind}:${key.id}`;
  }

  #userKey(key: PresenceKey, userId: number): string {
    return `${this.#membersKey(key)}:u:${userId}`;
  }

  #entryKeys(key: PresenceKey, entry: PresenceEntry): string[] {
    const members = this.#membersKey(key);
    return entry.userId === undefined ? [members] : [members, this.#userKey(key, entry.userId)];
  }

  async #run(code: Script, key: PresenceKey, keys: string[], args: string[]): Promise<PresenceState> {
    const listMax = key.kind === 'board' ? this.#listMax : 0;
    return parseReply(await this.#script(code, keys, [String(this.#ttlMs), String(listMax), ...args]));
  }

  /** EVALSHA, and EVAL once when Redis does not have the script (first use, or after a restart). */
  async #script(code: Script, keys: string[], argv: string[]): Promise<unknown> {
    try {
      return await this.#redis.evalsha(code.sha, keys.length, ...keys, ...argv);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return this.#redis.eval(code.source, keys.length, ...keys, ...argv);
    }
  }
}

/** One heartbeat script call being put together: its KEYS, its ARGV after the TTL, and which batch group each answer is for. */
class HeartbeatCall {
  readonly keys: string[] = [];
  readonly args: string[] = [];
  readonly groups: number[] = [];
  entries = 0;
  readonly #keyIndex = new Map<string, number>();

  /** The 1-based index of `name` in KEYS (Lua's KEYS is 1-based). */
  #index(name: string): number {
    let index = this.#keyIndex.get(name);
    if (index === undefined) {
      this.keys.push(name);
      index = this.keys.length;
      this.#keyIndex.set(name, index);
    }
    return index;
  }

  add(group: number, membersKey: string, listMax: number, entries: readonly PresenceEntry[], userKey: (userId: number) => string): void {
    this.groups.push(group);
    this.args.push(String(this.#index(membersKey)), String(listMax), String(entries.length));
    for (const entry of entries) {
      const index = entry.userId === undefined ? 0 : this.#index(userKey(entry.userId));
      this.args.push(memberOf(entry), entry.socketId, String(index));
    }
    this.entries += entries.length;
  }
}

function parseReply(reply: unknown): PresenceState {
  if (!Array.isArray(reply)) throw new Error('Unexpected presence script reply.');
  const [count, members] = reply as [unknown, unknown];
  return {
    count: typeof count === 'number' ? count : Number(count),
    userIds: Array.isArray(members) ? userIdsOf(members.filter((m): m is string => typeof m === 'string')) : [],
  };
}
