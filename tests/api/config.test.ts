// Deployment defaults that would weaken the server are refused at start-up, with a message naming
// the variable.
import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../backend/config.ts';

const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), DEMO_PASSWORD: 'a real secret demo password' };

test('TRUST_PROXY=true is refused in production: every client could forge X-Forwarded-For', () => {
  expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(ConfigError);
  expect(() => loadConfig({ ...production, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  expect(loadConfig({ ...production, TRUST_PROXY: '1' }).trustProxy).toBe(1);
  expect(loadConfig({ ...production, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
});

test('the dev secrets are refused in production', () => {
  expect(() => loadConfig({ NODE_ENV: 'production', DEMO_PASSWORD: 'a real secret demo password' })).toThrow(/SESSION_SECRET/);
  expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) })).toThrow(/DEMO_PASSWORD/);
});

test('the demo button is on in the embedded mode and off with a database server unless switched on', () => {
  expect(loadConfig({}).demoLogin).toBe(true);
  expect(loadConfig({ DATABASE_URL: 'postgres://db/pinboard' }).demoLogin).toBe(false);
  expect(loadConfig({ DATABASE_URL: 'postgres://db/pinboard', DEMO_LOGIN: 'true' }).demoLogin).toBe(true);
  expect(loadConfig({ DEMO_LOGIN: 'false' }).demoLogin).toBe(false);
});

test('images are processed one at a time in the embedded mode and two at a time with a database server, unless set', () => {
  expect(loadConfig({}).imageProcessing.concurrency).toBe(1);
  expect(loadConfig({ DATABASE_URL: 'postgres://db/pinboard' }).imageProcessing.concurrency).toBe(2);
  expect(loadConfig({ IMAGE_PROCESS_CONCURRENCY: '3' }).imageProcessing.concurrency).toBe(3);
  expect(() => loadConfig({ IMAGE_PROCESS_CONCURRENCY: '0' })).toThrow(/IMAGE_PROCESS_CONCURRENCY/);
});

test('presence: TTL and heartbeat have defaults (crash bound 60 s); PRESENCE_* set them', () => {
  expect(loadConfig({}).presence).toEqual({ ttlMs: 45_000, heartbeatMs: 15_000 });
  expect(loadConfig({ PRESENCE_TTL_SECONDS: '3', PRESENCE_HEARTBEAT_SECONDS: '1' }).presence).toEqual({ ttlMs: 3_000, heartbeatMs: 1_000 });
});

test('presence: a heartbeat must fit twice in the TTL, which must be positive', () => {
  expect(() => loadConfig({ PRESENCE_TTL_SECONDS: '10', PRESENCE_HEARTBEAT_SECONDS: '6' })).toThrow(/PRESENCE_HEARTBEAT_SECONDS/);
  expect(() => loadConfig({ PRESENCE_TTL_SECONDS: '0' })).toThrow(/PRESENCE_TTL_SECONDS/);
});

test('unused stored images are kept a day and swept hourly by default; IMAGE_SWEEP_* set both', () => {
  expect(loadConfig({}).imageSweep).toEqual({ graceHours: 24, intervalMs: 3_600_000 });
  expect(loadConfig({ IMAGE_SWEEP_GRACE_HOURS: '2', IMAGE_SWEEP_INTERVAL_SECONDS: '60' }).imageSweep).toEqual({ graceHours: 2, intervalMs: 60_000 });
  expect(() => loadConfig({ IMAGE_SWEEP_GRACE_HOURS: '0' })).toThrow(/IMAGE_SWEEP_GRACE_HOURS/);
});

test('the change log keeps a day by default; CHANGES_* set its retention and intervals', () => {
  expect(loadConfig({}).changes).toEqual({ retentionHours: 24, pruneIntervalMs: 600_000, headIntervalMs: 30_000 });
  const set = loadConfig({ CHANGES_RETENTION_HOURS: '2', CHANGES_PRUNE_INTERVAL_SECONDS: '60', CHANGES_HEAD_INTERVAL_SECONDS: '0.5' });
  expect(set.changes).toEqual({ retentionHours: 2, pruneIntervalMs: 60_000, headIntervalMs: 500 });
  expect(() => loadConfig({ CHANGES_RETENTION_HOURS: '0' })).toThrow(/CHANGES_RETENTION_HOURS/);
});
