import type { Measured } from './load.ts';
import { percentile } from './load.ts';
import type { StageTimes } from './profile.ts';
import type { Described } from './scenarios.ts';
import { STAGES } from './stages.ts';

// Formats what bench/rest.ts measured: one table of every scenario against the Express baseline,
// loud warnings for answers that were not 2xx, and (with --profile) the time per request by stage.
// Printing only; a benchmark never fails on its figures.

export interface Row {
  scenario: Described;
  /** Every round's answers together. */
  measured: Measured;
  /** The median over rounds of req/s ÷ the Express baseline's req/s in the same round. */
  share?: number | undefined;
  /** The median over rounds of pairs/s ÷ pgbench's pairs/s in the same round (the writes). */
  pgbenchShare?: number | undefined;
}

/** Several rounds' measurements as one (their windows' answers pooled; the first round's window). */
export function pooled(rounds: Measured[]): Measured {
  const [first] = rounds;
  if (!first) throw new Error('no round measured');
  const sumMaps = (maps: Array<Map<string, number>> | Array<Map<number, number>>) => {
    const total = new Map<string | number, number>();
    for (const map of maps) for (const [key, n] of map) total.set(key, (total.get(key) ?? 0) + n);
    return total;
  };
  const seconds = rounds.reduce((sum, m) => sum + m.seconds, 0);
  return {
    units: rounds.reduce((sum, m) => sum + m.units, 0),
    latencies: rounds.flatMap((m) => m.latencies),
    requests: rounds.reduce((sum, m) => sum + m.requests, 0),
    statuses: sumMaps(rounds.map((m) => m.statuses)) as Map<number, number>,
    setCookie: rounds.reduce((sum, m) => sum + m.setCookie, 0),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    byUrl: sumMaps(rounds.map((m) => m.byUrl)) as Map<string, number>,
    seconds,
    loadCpu: rounds.reduce((sum, m) => sum + m.loadCpu * m.seconds, 0) / seconds,
    window: first.window,
  };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '—');
const cells = (values: Array<[string, number]>) => values.map(([text, width], i) => (i === 0 ? text.padEnd(width) : text.padStart(width))).join('');

export const perSecond = (m: Measured) => m.units / m.seconds;
const ok = (m: Measured) => [...m.statuses].filter(([status]) => status >= 200 && status < 300).reduce((sum, [, n]) => sum + n, 0);

/** The row's share of the Express baseline: the median of its rounds', else against the pooled rate. */
const shareOf = (row: Row, express: number | undefined): number | undefined => row.share ?? (express === undefined ? undefined : perSecond(row.measured) / express);

function target(row: Row, express: number | undefined, showTargets: boolean): string {
  const t = row.scenario.target;
  if (!t || !showTargets) return '';
  if (t.kind === 'pgbench') {
    const text = `≥ ${Math.round(t.ratio * 100)} % of pgbench`;
    return row.pgbenchShare === undefined ? `${text} (not run)` : `${text} ${row.pgbenchShare >= t.ratio ? '✓' : '✗'}`;
  }
  const text = `≥ ${Math.round(t.ratio * 100)} %`;
  const share = shareOf(row, express);
  if (share === undefined) return `${text} (no baseline)`;
  return `${text} ${share >= t.ratio ? '✓' : '✗'}`;
}

/** The main table. `express` is the Express baseline's req/s, when it ran. */
export function resultsTable(rows: Row[], express: number | undefined, showTargets: boolean): string[] {
  const width = Math.max(...rows.map((r) => r.scenario.label.length)) + 2;
  const lines = [
    cells([
      ['scenario', width],
      ['req/s', 9],
      ['p50 ms', 9],
      ['p99 ms', 9],
      ['% Express', 11],
      ['non-2xx', 10],
      ['errors', 8],
      ['Set-Cookie', 16],
      ['split', 8],
      ['load CPU', 10],
      ['  target', 16],
    ]),
  ];
  for (const row of rows) {
    const m = row.measured;
    const rate = perSecond(m);
    const bad = m.requests - ok(m);
    const shares = [...m.byUrl.values()].map((n) => `${Math.round((100 * n) / Math.max(1, m.requests))}`);
    lines.push(
      cells([
        [row.scenario.label, width],
        [int(rate), 9],
        [ms(percentile(m.latencies, 50)), 9],
        [ms(percentile(m.latencies, 99)), 9],
        [shareOf(row, express) === undefined || row.scenario.unit === 'pair' ? '—' : `${(100 * (shareOf(row, express) as number)).toFixed(1)} %`, 11],
        [bad > 0 ? `⚠ ${int(bad)}` : '0', 10],
        [int(m.errors), 8],
        [`${int(m.setCookie)}/${int(m.requests)}`, 16],
        [shares.length > 1 ? shares.join('/') : '—', 8],
        [Number.isFinite(m.loadCpu) ? `${Math.round(100 * m.loadCpu)} %` : '—', 10],
        [`  ${target(row, express, showTargets)}`, 16],
      ]),
    );
  }
  return lines;
}

/** One loud line per scenario that got answers other than 2xx: its figures are not of successes. */
export function warnings(rows: Row[]): string[] {
  const lines: string[] = [];
  for (const { scenario, measured } of rows) {
    const bad = [...measured.statuses].filter(([status]) => status < 200 || status >= 300);
    if (bad.length > 0) {
      const detail = bad.map(([status, n]) => `${int(n)} × ${status}`).join(', ');
      lines.push(`!!! ${scenario.name}: ${detail} — NOT ALL ANSWERS WERE 2xx; its req/s and latencies include refusals or failures`);
    }
    if (measured.errors > 0) lines.push(`!!! ${scenario.name}: ${int(measured.errors)} socket errors or timeouts`);
    if (measured.units === 0) lines.push(`!!! ${scenario.name}: nothing completed in the measured window`);
  }
  return lines;
}

/**
 * The time per request by stage, one column per profiled scenario: microseconds on the profiled
 * instance's main thread per request it answered in the window, and the share of the busy time.
 */
export function stagesTable(columns: Array<{ name: string; requests: number; times: StageTimes }>): string[] {
  const width = 18;
  const col = Math.max(14, ...columns.map((c) => c.name.length + 2));
  const header = cells([['µs per request', width], ...columns.map((c): [string, number] => [c.name, col])]);
  const lines = [header];
  const used = STAGES.filter((stage) => columns.some((c) => (c.times.byStage.get(stage) ?? 0) > 0));
  for (const stage of used) {
    lines.push(
      cells([
        [stage, width],
        ...columns.map((c): [string, number] => {
          const micros = c.times.byStage.get(stage) ?? 0;
          return [c.requests > 0 ? `${(micros / c.requests).toFixed(1)} (${c.times.busy > 0 ? Math.round((100 * micros) / c.times.busy) : 0}%)` : '—', col];
        }),
      ]),
    );
  }
  const row = (label: string, value: (c: (typeof columns)[number]) => string) => cells([[label, width], ...columns.map((c): [string, number] => [value(c), col])]);
  lines.push(
    row('= busy', (c) => (c.requests > 0 ? `${(c.times.busy / c.requests).toFixed(1)}` : '—')),
    row('idle (% of time)', (c) => `${Math.round((100 * c.times.idle) / Math.max(1, c.times.busy + c.times.idle))} %`),
    row('1 core ≈ req/s', (c) => (c.times.busy > 0 ? int((1e6 * c.requests) / c.times.busy) : '—')),
    row('requests', (c) => int(c.requests)),
    row('samples', (c) => int(c.times.samples)),
  );
  return lines;
}
