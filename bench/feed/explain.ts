import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createCursorCodec } from '../../backend/paging/cursor.ts';
import { relatedPins } from '../../backend/search/related.service.ts';
import { searchPins } from '../../backend/search/search.service.ts';
import { suggest } from '../../backend/search/suggest.service.ts';
import { listTaggedPins } from '../../backend/pins/tagged-pins.ts';
import { normalizeTag } from '../../contract/tag-rules.ts';
import type { DB } from '../../db/schema.ts';

// The query plan behind a slow request: runs the request's service call on the benchmark database
// with Kysely's query log on, then EXPLAIN (ANALYZE, BUFFERS) of the statement that took longest,
// with the very SQL and parameters the app sends.

type Logged = { sql: string; parameters: readonly unknown[]; ms: number };

async function callFor(db: Kysely<DB>, path: string): Promise<void> {
  const url = new URL(path, 'http://bench');
  const cursors = createCursorCodec('bench explain secret, not a real one');
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const q = url.searchParams.get('q') ?? '';
  const related = /^\/api\/pins\/(\d+)\/related$/.exec(url.pathname);
  if (url.pathname === '/api/search') await searchPins(db, cursors, { q, limit });
  else if (url.pathname === '/api/search/suggest') await suggest(db, q);
  else if (related) await relatedPins(db, cursors, Number(related[1]), undefined, { limit });
  else await listTaggedPins(db, cursors, { tag: normalizeTag(url.searchParams.get('tag') ?? '') ?? '', limit });
}

export async function explainRequest(databaseUrl: string, path: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const logged: Logged[] = [];
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') logged.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
    },
  });
  try {
    await callFor(db, path); // warm, as the measured request was
    logged.length = 0;
    await callFor(db, path);
    const slowest = logged.reduce<Logged | undefined>((a, b) => (!a || b.ms > a.ms ? b : a), undefined);
    if (!slowest) return ['  (no statement ran)'];
    // Settings the statement ran under (`set local` in its transaction), set again for the plan.
    const at = logged.indexOf(slowest);
    const begun = logged.slice(0, at).findLastIndex((l) => /^\s*begin\b/i.test(l.sql));
    const ended = logged.slice(0, at).findLastIndex((l) => /^\s*(commit|rollback)\b/i.test(l.sql));
    const settings =
      begun < 0 || ended > begun
        ? []
        : logged
            .slice(begun + 1, at)
            .filter((l) => /^\s*set local\b/i.test(l.sql))
            .map((l) => l.sql);
    const plan = await db.transaction().execute(async (trx) => {
      for (const setting of settings) await trx.executeQuery(CompiledQuery.raw(setting));
      return trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers) ${slowest.sql}`, [...slowest.parameters]));
    });
    const params = slowest.parameters.map((p) => (Array.isArray(p) && p.length > 8 ? `[${p.length} values]` : JSON.stringify(p)).slice(0, 160));
    return [
      `  ${logged.length} statements, ${logged.map((l) => l.ms.toFixed(1)).join(' + ')} ms; the slowest (${slowest.ms.toFixed(1)} ms)${settings.length ? `, after ${settings.join('; ')}` : ''}:`,
      ...slowest.sql
        .split('\n')
        .map((line) => `    ${line.trim()}`)
        .filter((line) => line.trim()),
      `    parameters: ${params.join(', ')}`,
      ...plan.rows.map((row) => `    ${row['QUERY PLAN']}`),
    ];
  } finally {
    await db.destroy();
  }
}
