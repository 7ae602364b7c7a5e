import type { Reporter, TestModule } from 'vitest/node';

// A reporter beside the default one: at the end of a run, each project's files, the time from its
// first file's start to its last file's end, and the sum of its files' own times, then the slowest
// files, so a slow CI run says which suite and which files it spent its time in.

/** How many of the slowest files the report names. */
const SLOWEST = 40;

interface Span {
  files: number;
  first: number;
  last: number;
  busy: number;
}

export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();
  private readonly files: Array<{ name: string; ms: number }> = [];

  onTestModuleStart(module: TestModule): void {
    const span = this.spanOf(module.project.name);
    span.first = Math.min(span.first, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spanOf(module.project.name);
    span.files += 1;
    span.last = Math.max(span.last, performance.now());
    span.busy += module.diagnostic().duration;
    this.files.push({ name: `${module.project.name} ${module.moduleId.replace(`${process.cwd()}/`, '')}`, ms: module.diagnostic().duration });
  }

  onTestRunEnd(): void {
    if (!this.spans.size) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const lines = [...this.spans].map(
      ([name, span]) => `  ${name.padEnd(13)} ${String(span.files).padStart(4)} files  ${seconds(span.last - span.first).padStart(7)} from first to last  ${seconds(span.busy).padStart(7)} in files`,
    );
    const slowest = [...this.files]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST)
      .map((file) => `  ${seconds(file.ms).padStart(7)}  ${file.name}`);
    console.log(['', 'Time per project:', ...lines, '', `The ${slowest.length} slowest files:`, ...slowest].join('\n'));
  }

  private spanOf(name: string): Span {
    let span = this.spans.get(name);
    if (!span) {
      span = { files: 0, first: Number.POSITIVE_INFINITY, last: 0, busy: 0 };
      this.spans.set(name, span);
    }
    return span;
  }
}
