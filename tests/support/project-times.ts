import type { Reporter, TestModule } from 'vitest/node';

// A reporter beside the default one: at the end of a run, each project's files, the time from its
// first file's start to its last file's end, and the sum of its files' own times, so a slow CI run
// says which suite it spent its time in.

interface Span {
  files: number;
  first: number;
  last: number;
  busy: number;
}

export default class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const span = this.spanOf(module.project.name);
    span.first = Math.min(span.first, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spanOf(module.project.name);
    span.files += 1;
    span.last = Math.max(span.last, performance.now());
    span.busy += module.diagnostic().duration;
  }

  onTestRunEnd(): void {
    if (!this.spans.size) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const lines = [...this.spans].map(([name, span]) => `  ${name.padEnd(13)} ${String(span.files).padStart(4)} files  ${seconds(span.last - span.first).padStart(7)} from first to last  ${seconds(span.busy).padStart(7)} in files`);
    console.log(['', 'Time per project:', ...lines].join('\n'));
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
