import { percentile } from './load.ts';
import type { FeedFigures, ScenarioName } from './scenarios.ts';

// Verdicts for the search reads (./search-scenarios.ts). On Postgres at a million pins: absolute p99
// targets. On PGlite (a hundred thousand pins, another engine in the app's own process): the same
// targets as multiples of a single-pin read, the multiples taken from the Postgres run's own single
// read. Printing only; nothing here fails a run.

export const SEARCH_READS: readonly ScenarioName[] = ['search', 'suggest', 'tag', 'related'];

/** p99 targets on Postgres, in milliseconds (the type-ahead must keep up with typing). */
export const SEARCH_TARGETS_MS: Partial<Record<ScenarioName, number>> = { search: 50, suggest: 20, related: 50 };

const verdict = (met: boolean, text: string) => `  [${met ? 'met' : 'NOT met'}] ${text}`;
const p99 = (figures: FeedFigures, name: ScenarioName) => {
  const scenario = figures.scenarios.find((s) => s.name === name);
  return scenario ? percentile(scenario.measured.latencies, 99) : NaN;
};

export function searchVerdicts(postgres: FeedFigures | undefined, pglite: FeedFigures | undefined, scales: { postgres: string; pglite: string }): string[] {
  const lines: string[] = [];
  const pgSingle = postgres ? p99(postgres, 'single') : NaN;
  const liteSingle = pglite ? p99(pglite, 'single') : NaN;
  for (const [name, target] of Object.entries(SEARCH_TARGETS_MS) as Array<[ScenarioName, number]>) {
    if (postgres) {
      const value = p99(postgres, name);
      lines.push(verdict(value <= target, `${name} p99 ≤ ${target} ms ${scales.postgres}: ${value.toFixed(1)} ms (${(value / pgSingle).toFixed(1)}× a single-pin read's p99)`));
    }
    if (postgres && pglite) {
      const allowed = target / pgSingle;
      const ratio = p99(pglite, name) / liteSingle;
      lines.push(
        verdict(
          ratio <= allowed,
          `${name} p99 ${scales.pglite} ≤ ${allowed.toFixed(1)}× a single-pin read (the Postgres target's multiple): ${ratio.toFixed(1)}× (${p99(pglite, name).toFixed(1)} ms)`,
        ),
      );
    }
  }
  return lines;
}

/** The search read with the highest p99, and its slowest request. */
export function slowestSearchRead(figures: FeedFigures): { label: string; path: string; ms: number } | undefined {
  const reads = figures.scenarios.filter((s) => SEARCH_READS.includes(s.name) && s.measured.slowest);
  const worst = reads.reduce<(typeof reads)[number] | undefined>((a, b) => (!a || percentile(b.measured.latencies, 99) > percentile(a.measured.latencies, 99) ? b : a), undefined);
  return worst?.measured.slowest && { label: worst.label, ...worst.measured.slowest };
}
