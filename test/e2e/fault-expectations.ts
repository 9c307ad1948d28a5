// What the fault tests expect of a server under load while its database stops storing: 503 with Retry-After and then
// recovery, every acknowledged result stored, and two log lines per fault.
import { expect } from 'vitest';
import { STORAGE_RETRY_AFTER_SEC } from '../../src/domain/errors.js';
import { createLogger } from '../../src/logger.js';
import { STORAGE_WATCH } from '../../src/runner/storage-watch.js';
import { type ResultLoad, startResultLoad } from '../result-load.js';
import type { SeededWarden } from '../seeded-warden.js';

/** How soon after the database is back pushes must be stored again. */
export const RECOVERY_MS = 5_000;

export const PROBLEM_TYPE = 'https://warden.dev/problems/storage-unavailable';

export const RELAY = 'wdr_faultRelayToken0123456789abcd';

export const PUSH_TOKENS = [
  'wdp_faultPushTokenNumberOne012345',
  'wdp_faultPushTokenNumberTwo012345',
  'wdp_faultPushTokenNumberThree0123',
];

export interface LogLine {
  level: number;
  msg: string;
  fault?: string;
}

export function capturedLogger() {
  const lines: LogLine[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the load on a seeded server. */
export function loadOn(s: SeededWarden): ResultLoad {
  return startResultLoad({
    url: s.url,
    pushTokens: PUSH_TOKENS,
    relayToken: RELAY,
    relayMonitorIds: [s.monitors.relayed0?.id as string, s.monitors.relayed1?.id as string],
    relayClients: 2,
    resultsPerBatch: 10,
    pauseAfterRefusalMs: 20,
  });
}

/** An API write large enough to need new pages of the database (an incident with a long first update). */
export const openIncident = (s: SeededWarden) =>
  fetch(`${s.url}/api/v1/pages/ops/incidents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Database',
      impact: 'minor',
      message: Array.from({ length: 900 }, (_, i) => `w${(i * 7919) % 10007}`).join(' '),
    }),
  });

/**
 * The answers during the run: 200 or 503 only (with `refused`, 503s of both kinds), each 503 with Retry-After and the
 * problem type; pushes and relay results stored again within RECOVERY_MS of `backAt`, and nothing but 200 from then on.
 */
export async function expectRefusedThenRecovered(
  load: ResultLoad,
  backAt: number,
  { refused: mustRefuse = true } = {},
): Promise<void> {
  const firstPush = await load.first('push', 200, backAt, RECOVERY_MS + 1_000);
  const firstRelay = await load.first('relay', 200, backAt, RECOVERY_MS + 1_000);
  expect(firstPush, 'a push answered 200 after the database came back').toBeDefined();
  expect(firstRelay, 'a relay batch answered 200 after the database came back').toBeDefined();
  expect((firstPush?.answeredAt ?? Number.POSITIVE_INFINITY) - backAt).toBeLessThanOrEqual(RECOVERY_MS);
  expect((firstRelay?.answeredAt ?? Number.POSITIVE_INFINITY) - backAt).toBeLessThanOrEqual(RECOVERY_MS);
  // Keep going a little: writes stay back.
  const steadyFrom = Math.max(firstPush?.answeredAt ?? 0, firstRelay?.answeredAt ?? 0) + 200;
  await sleep(1_000);
  await load.stop();

  const statuses = new Map<number, number>();
  for (const a of load.answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  const seen = `statuses seen: ${JSON.stringify(Object.fromEntries(statuses))}`;
  if (mustRefuse) expect([...statuses.keys()].sort(), seen).toEqual([200, 503]);
  else
    expect(
      [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
      seen,
    ).toEqual([]);
  const refused = load.answers.filter((a) => a.status === 503);
  if (mustRefuse) expect(refused.some((a) => a.kind === 'push')).toBe(true);
  if (mustRefuse) expect(refused.some((a) => a.kind === 'relay')).toBe(true);
  for (const a of refused) {
    expect(a.retryAfter).toBe(String(STORAGE_RETRY_AFTER_SEC));
    expect(a.contentType).toBe('application/problem+json');
    expect(a.problem).toBe(PROBLEM_TYPE);
  }
  expect(load.answers.filter((a) => a.sentAt >= steadyFrom && a.status !== 200)).toEqual([]);
}

/** Every push and relay result answered 200 is stored; `exactly`: and nothing refused is (no commit in doubt). */
export async function expectAcknowledgedStored(s: SeededWarden, load: ResultLoad, exactly: boolean): Promise<void> {
  for (const [i, token] of PUSH_TOKENS.entries()) {
    const acked = load.ackedPushes.get(token) as Set<string>;
    const checks = await s.opened.store.checks.list(s.monitors[`push${i}`]?.id as string, {
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      limit: 1_000_000,
    });
    const stored = new Set(checks.map((c) => c.message));
    const lost = [...acked].filter((msg) => !stored.has(msg));
    expect(lost, `pushes of token ${i} answered 200 but not stored`).toEqual([]);
    if (exactly) expect(checks.length).toBe(acked.size);
    expect(acked.size).toBeGreaterThan(0);
  }
  const stored = await s.opened.store.checks.storedResultKeys(
    [...load.sentResults].map((key) => {
      const [monitorId, resultId] = key.split('\u0000') as [string, string];
      return { monitorId, resultId };
    }),
  );
  expect(
    [...load.ackedResults].filter((key) => !stored.has(key)),
    'relay results accepted but not stored',
  ).toEqual([]);
  if (exactly) expect(stored.size).toBe(load.ackedResults.size);
  expect(load.ackedResults.size).toBeGreaterThan(0);
}

/**
 * One error line when storing stopped, one info line when it came back, and no other error (none per request).
 * `maybe`: no line at all is right too (a fault no operation ran into).
 */
export async function expectTwoLogLines(lines: LogLine[], fault: string, { maybe = false } = {}): Promise<void> {
  const recovered = () => lines.filter((l) => l.msg.startsWith('storage available again'));
  const down = lines.filter((l) => l.msg.startsWith('storage unavailable'));
  if (maybe && down.length === 0) {
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    return;
  }
  for (let waited = 0; recovered().length === 0 && waited < STORAGE_WATCH.quietMs + 3_000; waited += 50)
    await sleep(50);
  expect(down).toHaveLength(1);
  expect(down[0]).toMatchObject({ level: 50, fault });
  expect(down[0]?.msg).toContain(`503 with Retry-After: ${STORAGE_RETRY_AFTER_SEC}`);
  expect(recovered()).toHaveLength(1);
  expect(recovered()[0]).toMatchObject({ level: 30, fault });
  expect(lines.indexOf(down[0] as LogLine)).toBeLessThan(lines.indexOf(recovered()[0] as LogLine));
  expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([down[0]?.msg]);
}
