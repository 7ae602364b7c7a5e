import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

// Public reads (a pin, a page of pins, a page of a pin's comments) are the same for every visitor,
// so an instance keeps their serialized answers for a short while. Each entry carries tags (`pin:7`,
// `comments:7`, `pins:first`); the events the app already publishes invalidate those tags on this
// instance at once and on the others through the socket adapter (backend/realtime/cache-relay.ts),
// before the matching socket event is relayed. If an invalidation is ever missed (Redis down
// between two instances), the TTL bounds how long a stale answer can live.

export interface ReadCacheOptions {
  /** Entries kept at most; the oldest is dropped first. */
  maxEntries: number;
  /** How long an entry may be served without any invalidation. */
  ttlMs: number;
}

type Encoding = 'br' | 'gzip';

/** A cached answer to send. */
export interface CachedRead {
  /** The JSON, encoded once. */
  body: Buffer;
  etag: string;
  /** The body compressed, made the first time a client asks for that encoding. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

interface Entry extends CachedRead {
  tags: string[];
  expires: number;
}

/** A load whose result says which tags it depends on. */
export interface TaggedLoad<T> {
  load: () => Promise<T>;
  tags: (value: T) => string[];
}

/** What cached reads depend on; backend/realtime/cache-relay.ts says which change drops which. */
export const cacheTags = {
  pin: (pinId: number) => `pin:${pinId}`,
  /** Every page of a pin's comments. */
  comments: (pinId: number) => `comments:${pinId}`,
  /** Every first page of a pin list: a new pin goes on top of them. */
  firstPages: 'pins:first',
} as const;

/** Tags forgotten once this many invalidations are remembered (see `#startedBefore`). */
const MAX_REMEMBERED_INVALIDATIONS = 50_000;

export class ReadCache {
  readonly #entries = new Map<string, Entry>();
  /** Which entries carry a tag. */
  readonly #byTag = new Map<string, Set<string>>();
  /** The sequence number of each tag's latest invalidation. */
  readonly #invalidatedAt = new Map<string, number>();
  /** Loads that started at or before this sequence number may not be stored (memory bound above). */
  #floor = 0;
  #sequence = 0;
  /** Loads under way, shared by concurrent misses of one key while nothing has been invalidated. */
  readonly #loading = new Map<string, { started: number; done: Promise<CachedRead> }>();
  readonly #options: ReadCacheOptions;

  constructor(options: ReadCacheOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The cached answer for `key`, or runs the load, stores its serialized answer (unless one of its
   * tags was invalidated while it ran: that answer may already be stale) and returns it.
   */
  async read<T>(key: string, { load, tags }: TaggedLoad<T>): Promise<CachedRead> {
    const cached = this.#entries.get(key);
    if (cached && cached.expires > Date.now()) return cached;
    if (cached) this.#delete(key, cached);
    const underway = this.#loading.get(key);
    // Only a load that began after the latest invalidation can answer for this request too.
    if (underway && underway.started === this.#sequence) return underway.done;
    const started = this.#sequence;
    const done = (async () => {
      const value = await load();
      const body = Buffer.from(JSON.stringify(value));
      const entry: Entry = { body, etag: etagOf(body), encoded: {}, tags: tags(value), expires: Date.now() + this.#options.ttlMs };
      if (!this.#changedSince(started, entry.tags)) this.#store(key, entry);
      return entry;
    })();
    this.#loading.set(key, { started, done });
    try {
      return await done;
    } finally {
      if (this.#loading.get(key)?.done === done) this.#loading.delete(key);
    }
  }

  /** Drops every entry carrying one of these tags. */
  invalidate(tags: readonly string[]): void {
    const sequence = ++this.#sequence;
    for (const tag of tags) {
      this.#invalidatedAt.set(tag, sequence);
      const keys = this.#byTag.get(tag);
      if (!keys) continue;
      for (const key of keys) {
        const entry = this.#entries.get(key);
        if (entry) this.#delete(key, entry);
      }
    }
    if (this.#invalidatedAt.size > MAX_REMEMBERED_INVALIDATIONS) {
      // Forgetting which tags changed is safe if no load that started before now may store.
      this.#invalidatedAt.clear();
      this.#floor = sequence;
    }
  }

  /** Drops everything (e.g. after this instance may have missed invalidations). */
  clear(): void {
    this.#entries.clear();
    this.#byTag.clear();
    this.#floor = ++this.#sequence;
  }

  #changedSince(started: number, tags: readonly string[]): boolean {
    if (started < this.#floor) return true;
    return tags.some((tag) => (this.#invalidatedAt.get(tag) ?? 0) > started);
  }

  #store(key: string, entry: Entry): void {
    const previous = this.#entries.get(key);
    if (previous) this.#delete(key, previous);
    this.#entries.set(key, entry);
    for (const tag of entry.tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) this.#byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    if (this.#entries.size > this.#options.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, Entry];
      this.#delete(oldestKey, oldest);
    }
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
  }
}

/** A strong validator of the exact bytes (the body is what the client would compare). */
function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Below this, compressing saves less than it costs (the compression middleware's own threshold). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Answers with a cached read: 304 when the client already holds this version (If-None-Match),
 * otherwise the JSON body, compressed once per entry and encoding rather than once per answer (a
 * 50-pin page is 15 KB; gzipping it on every answer was a third of the page's CPU). `no-cache` lets
 * browsers keep the answer but revalidate it every time, which costs a 304 when nothing changed.
 */
export function sendCached(req: Request, res: Response, read: CachedRead): void {
  res.setHeader('ETag', read.etag);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding');
  if (matches(req.headers['if-none-match'], read.etag)) {
    res.status(304).end();
    return;
  }
  const encoding = read.body.length >= COMPRESS_FROM_BYTES ? req.acceptsEncodings('br', 'gzip') : false;
  let body = read.body;
  if (encoding === 'br' || encoding === 'gzip') {
    body = read.encoded[encoding] ??= compress(encoding, read.body);
    // The compression middleware leaves an answer that already has an encoding alone.
    res.setHeader('Content-Encoding', encoding);
  }
  // Written directly: the bytes, their length and validator are known, so res.send has nothing to add.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function compress(encoding: Encoding, body: Buffer): Buffer {
  if (encoding === 'gzip') return gzipSync(body);
  // Quality 5: close to the best ratio for JSON of this size, at a fraction of quality 11's time.
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // Weak comparison, as RFC 9110 asks for If-None-Match: a W/ prefix added by a proxy still matches.
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
