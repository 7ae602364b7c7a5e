// Hosts that just timed out are left alone for a while: asked again at once, a host that accepts
// connections and never answers would hold a fetch worker for every pin that names it. Their
// fetches wait instead (backend/pins/image-fetch-job.ts, and a bulk import's items:
// backend/imports/import-item.ts), without taking a worker. Kept per instance (each instance
// learns it from one timeout of its own), bounded in size.

const MAX_HOSTS = 10_000;

export class HostCooldown {
  private readonly until = new Map<string, number>();
  private readonly cooldownMs: number;

  constructor(cooldownMs: number) {
    this.cooldownMs = cooldownMs;
  }

  /** `host` timed out: it is not asked again for the cooldown. */
  timedOut(host: string, now = Date.now()): void {
    if (this.cooldownMs <= 0) return;
    if (this.until.size >= MAX_HOSTS) {
      for (const [name, end] of this.until) if (end <= now) this.until.delete(name);
      // Still full: the oldest entry (Map keeps insertion order) goes.
      if (this.until.size >= MAX_HOSTS) this.until.delete(this.until.keys().next().value as string);
    }
    this.until.delete(host);
    this.until.set(host, now + this.cooldownMs);
  }

  /** How long `host` is still left alone (0: it may be asked). */
  remainingMs(host: string, now = Date.now()): number {
    const end = this.until.get(host);
    if (end === undefined) return 0;
    if (end <= now) {
      this.until.delete(host);
      return 0;
    }
    return end - now;
  }
}

/** The host an address names, as the cooldown knows it (undefined for an address that does not parse). */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}
