// Which stage of a request a CPU-profile frame belongs to: the one table to adjust when the
// middleware changes. bench/rest/profile.ts walks each sample's stack from the leaf (the function
// that was running) towards the root, and the first frame a *strong* rule matches names the stage;
// frames no rule matches (small helpers such as `cookie`, `on-headers`, node:crypto) are passed
// over, so their time goes to the middleware that called them. *Weak* rules (node's own http and
// stream code, Express's req/res helpers) count only when no strong frame is on the stack: node's
// setHeader called by helmet is helmet's cost, but node parsing a request before any middleware
// runs is node's.
//
// Why "first strong frame from the leaf" rather than "outermost middleware": Express middlewares
// call next() synchronously, so the request logger, the first middleware, is on the stack of
// almost everything that follows it. The innermost owner is the one doing the work. The price is
// that a library called from a stage of its own keeps its time: ioredis commands issued by the
// session store count as ioredis, not as session (their replies arrive on a stack of their own anyway).

export const STAGES = [
  'session',
  'csrf',
  'rate limit',
  'logging',
  'query',
  'serialisation',
  'security headers',
  'static files',
  'handler',
  'routing',
  'live events',
  'ioredis',
  'node http/net',
  'GC',
  'native (program)',
  'other',
] as const;
export type Stage = (typeof STAGES)[number];

/** A frame: its function and script, the script as a package name or a repository path. */
export interface Frame {
  functionName: string;
  url: string;
  /** The npm package the script belongs to (`express`, `@pinojs/redact`), if any. */
  packageName: string | undefined;
  /** The script's path inside the package (`lib/response.js`) or the repository (`backend/http/csrf.ts`). */
  file: string;
}

interface Rule {
  stage: Stage;
  packages?: string[];
  /** Tested against `file` (inside the package when `packages` is given, else repository files only). */
  file?: RegExp;
  functionName?: RegExp;
  /** Node's own scripts (`node:…`). */
  node?: RegExp;
  weak?: true;
}

/** In order: a frame gets the first rule it matches (so res.json is serialisation, res.cookie a helper). */
const RULES: Rule[] = [
  { stage: 'session', packages: ['express-session', 'connect-redis', 'uid-safe'] },
  { stage: 'session', file: /^backend\/http\/(session|memory-session-store)\.ts$/ },
  { stage: 'csrf', packages: ['csrf-csrf', 'cookie-parser'] },
  { stage: 'csrf', file: /^backend\/http\/(csrf|origin)\.ts$/ },
  { stage: 'rate limit', packages: ['express-rate-limit', 'rate-limit-redis'] },
  { stage: 'rate limit', file: /^backend\/http\/rate-limit/ },
  {
    stage: 'logging',
    packages: ['pino', 'pino-http', 'pino-std-serializers', 'sonic-boom', '@pinojs/redact', 'fast-redact', 'quick-format-unescaped', 'safe-stable-stringify', 'thread-stream', 'atomic-sleep'],
  },
  { stage: 'logging', file: /^backend\/http\/request-logger\.ts$/ },
  { stage: 'query', packages: ['kysely', 'pg', 'pg-pool', 'pg-protocol', 'pg-types', 'pg-int8', 'postgres-array', 'postgres-bytea', 'postgres-date', 'postgres-interval', 'split2'] },
  // The services build and run the queries; keyset/shuffle paging writes their where clauses.
  { stage: 'query', file: /^(backend\/[^/]+\/[^/]+\.service\.ts|backend\/paging\/(keyset|shuffle)\.ts|db\/)/ },
  // What res.json and res.send do: JSON.stringify (inside express's own `stringify`), the ETag,
  // the freshness check, and compression's wrappers of write/end.
  { stage: 'serialisation', packages: ['express'], file: /^lib\/response\.js$/, functionName: /^(json|jsonp|send|sendStatus|stringify)$/ },
  { stage: 'serialisation', packages: ['etag', 'fresh', 'compression'] },
  // zlib's work for compression runs from stream callbacks, with no compression frame above it.
  { stage: 'serialisation', node: /^node:zlib$/ },
  // Express's other request getters and response helpers (res.cookie, res.status, req.ip, …) are
  // weak: their caller owns them.
  { stage: 'routing', packages: ['express'], file: /^lib\/(request|response)\.js$/, weak: true },
  { stage: 'security headers', packages: ['helmet'] },
  // express.static runs for every request that reaches it, /api/… included (a stat that finds nothing).
  { stage: 'static files', packages: ['serve-static', 'send'] },
  // The route's own code: input validation, the handler, the error renderer, cursor signing, bodies.
  { stage: 'handler', packages: ['zod', 'body-parser', 'raw-body', 'type-is', 'content-type'] },
  { stage: 'handler', file: /^(backend\/http\/(route|validate|error-handler)\.ts|backend\/[^/]+\/[^/]+\.routes\.ts|backend\/(routes|errors|context)\.ts|backend\/(paging|idempotency)\/|contract\/)/ },
  { stage: 'routing', packages: ['express', 'router', 'path-to-regexp', 'parseurl', 'finalhandler'] },
  { stage: 'routing', file: /^backend\/(app|server)\.ts$|^backend\/http\/health\.ts$/ },
  // Every HTTP request passes engine.io's check for /socket.io before Express sees it.
  { stage: 'live events', packages: ['socket.io', 'socket.io-adapter', 'socket.io-parser', 'engine.io', 'engine.io-parser', 'ws', '@socket.io/redis-adapter'] },
  { stage: 'live events', file: /^backend\/(events|realtime)\// },
  { stage: 'ioredis', packages: ['ioredis', '@ioredis/commands', 'redis-errors', 'redis-parser', 'cluster-key-slot', 'denque', 'standard-as-callback'] },
  { stage: 'node http/net', node: /^node:(_http_|net$|stream$|internal\/(http|stream_base_commons|streams\/))/, weak: true },
];

function matches(rule: Rule, frame: Frame): boolean {
  if (rule.node) return rule.node.test(frame.url);
  if (rule.packages) {
    if (frame.packageName === undefined || !rule.packages.includes(frame.packageName)) return false;
  } else if (frame.packageName !== undefined || frame.url.startsWith('node:')) {
    return false;
  }
  if (rule.file && !rule.file.test(frame.file)) return false;
  if (rule.functionName && !rule.functionName.test(frame.functionName)) return false;
  return true;
}

/** The rule a frame matches, if any: its stage and whether it is weak. */
export function classifyFrame(frame: Frame): { stage: Stage; weak: boolean } | undefined {
  for (const rule of RULES) {
    if (matches(rule, frame)) return { stage: rule.stage, weak: rule.weak === true };
  }
  return undefined;
}

/** V8's pseudo-frames: time outside JavaScript. `undefined` for an ordinary frame. */
export function pseudoStage(functionName: string): Stage | 'idle' | undefined {
  switch (functionName) {
    case '(idle)':
      return 'idle';
    case '(garbage collector)':
      return 'GC';
    case '(program)':
      return 'native (program)';
    case '(root)':
      return 'other';
    default:
      return undefined;
  }
}
