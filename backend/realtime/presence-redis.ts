import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { memberOf, type PresenceEntry, type PresenceKey, type PresenceState, type PresenceStore, userIdsOf } from './presence-store.ts';

// Presence in Redis, shared by every instance (DESIGN §12, NOTES §4). Per pin or board:
//   <prefix>presence:pin:<id>            ZSET member (`u:<userId>` | `s:<socketId>`) → expiry (ms)
//   <prefix>presence:pin:<id>:u:<userId>  ZSET socket id → expiry: that user's present tabs
// One Lua script per event (join, leave, heartbeat, read), each a single round trip that also
// drops expired members and answers the count (and, for boards, the present users). Expiries come
// from Redis' own clock (TIME), so instances with skewed clocks agree. Every key also carries a
// PEXPIRE of the TTL, so a pin nobody looks at any more leaves nothing behind.

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
 * This instance's entries of one key: ARGV from 3 on, triples (member, socket id, index in KEYS
 * of the user's sockets key, 0 for an anonymous socket). Re-adds what a Redis restart lost.
 */
const HEARTBEAT = `${HEAD}
local expiry = now + ttl
local cleaned = {}
for i = 3, #ARGV, 3 do
  redis.call('ZADD', KEYS[1], expiry, ARGV[i])
  local k = tonumber(ARGV[i + 2])
  if k > 0 then
    redis.call('ZADD', KEYS[k], expiry, ARGV[i + 1])
    if not cleaned[k] then
      cleaned[k] = true
      redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
      redis.call('PEXPIRE', KEYS[k], ttl)
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return answer()
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

/** Heartbeat entries per script call: bounds one call's size (and how long it holds Redis). */
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
  }

  join(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    return this.#run(SCRIPTS.join, key, this.#entryKeys(key, entry), [memberOf(entry), entry.socketId]);
  }

  leave(key: PresenceKey, entry: PresenceEntry): Promise<PresenceState> {
    return this.#run(SCRIPTS.leave, key, this.#entryKeys(key, entry), [memberOf(entry), entry.socketId]);
  }

  async refresh(key: PresenceKey, entries: readonly PresenceEntry[]): Promise<PresenceState> {
    let state: PresenceState = { count: 0, userIds: [] };
    for (let i = 0; i < entries.length || i === 0; i += HEARTBEAT_CHUNK) {
      const keys = [this.#membersKey(key)];
      const userKeyIndex = new Map<number, number>();
      const args: string[] = [];
      for (const entry of entries.slice(i, i + HEARTBEAT_CHUNK)) {
        let index = 0;
        if (entry.userId !== undefined) {
          index = userKeyIndex.get(entry.userId) ?? 0;
          if (index === 0) {
            keys.push(this.#userKey(key, entry.userId));
            index = keys.length; // Lua's KEYS is 1-based
            userKeyIndex.set(entry.userId, index);
          }
        }
        args.push(memberOf(entry), entry.socketId, String(index));
      }
      state = await this.#run(SCRIPTS.heartbeat, key, keys, args);
    }
    return state;
  }

  read(key: PresenceKey): Promise<PresenceState> {
    return this.#run(SCRIPTS.read, key, [this.#membersKey(key)], []);
  }

  #membersKey(key: PresenceKey): string {
    return `${this.#prefix}presence:${key.kind}:${key.id}`;
  }

  #userKey(key: PresenceKey, userId: number): string {
    return `${this.#membersKey(key)}:u:${userId}`;
  }

  #entryKeys(key: PresenceKey, entry: PresenceEntry): string[] {
    const members = this.#membersKey(key);
    return entry.userId === undefined ? [members] : [members, this.#userKey(key, entry.userId)];
  }

  /** EVALSHA, and EVAL once when Redis does not have the script (first use, or after a restart). */
  async #run(code: Script, key: PresenceKey, keys: string[], args: string[]): Promise<PresenceState> {
    const listMax = key.kind === 'board' ? this.#listMax : 0;
    const argv = [String(this.#ttlMs), String(listMax), ...args];
    let reply: unknown;
    try {
      reply = await this.#redis.evalsha(code.sha, keys.length, ...keys, ...argv);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      reply = await this.#redis.eval(code.source, keys.length, ...keys, ...argv);
    }
    return parseReply(reply);
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
