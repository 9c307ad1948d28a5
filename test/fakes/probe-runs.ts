// How probe tests run a probe: directly or through runProbe, against fakes that are closed after use, proving nothing stayed open.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import type { z } from 'zod';
import { ANY_TARGET, type TargetGuard } from '../../src/net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from '../../src/probes/probe.js';
import { runProbe } from '../../src/probes/run.js';
import { activeResources, leakedResources, quietResources } from './handles.js';
import { createSelfSignedCertificate, type FakeServer, startWebsiteFake } from './http-fakes.js';

/**
 * Calls a probe as a runner would, but without runProbe's scrubbing and caps: the config parsed, the signal aborting at
 * the timeout, any target allowed unless a guard is given.
 */
export function probeDirectly<Schema extends z.ZodType>(
  definition: ProbeDefinition<Schema>,
  config: unknown,
  timeoutMs = 1500,
  signal: AbortSignal = AbortSignal.timeout(timeoutMs),
  guard: TargetGuard = ANY_TARGET,
): Promise<ProbeResult> {
  if (!definition.probe) throw new Error(`${definition.id} monitors are push-only and have no probe`);
  return definition.probe(definition.config.parse(config), { signal, timeoutMs, guard });
}

/** Runs a probe through runProbe, config validation, scrubbing and caps included; any target allowed unless a guard is given. */
export function runThrough<Schema extends z.ZodType>(
  definition: ProbeDefinition<Schema>,
  config: unknown,
  timeoutMs = 1500,
  guard: TargetGuard = ANY_TARGET,
): Promise<ProbeResult> {
  return runProbe(definition as unknown as ProbeDefinition, config, { timeoutMs, guard });
}

/**
 * Runs a probe through runProbe against a fake and closes the fake afterwards, proving nothing stayed open and,
 * when a secret is given, that it shows nowhere in the result.
 */
export async function checkAgainst<Fake extends { close(): Promise<void> }, Schema extends z.ZodType>(
  fake: Fake,
  definition: ProbeDefinition<Schema>,
  config: Record<string, unknown>,
  timeoutMs: number,
  secret?: string,
): Promise<{ result: ProbeResult; elapsedMs: number; fake: Fake }> {
  try {
    const before = activeResources();
    const started = performance.now();
    const result = await runThrough(definition, config, timeoutMs);
    const elapsedMs = performance.now() - started;
    expect(await leakedResources(before)).toEqual({});
    if (secret !== undefined) expect(JSON.stringify(result)).not.toContain(secret);
    return { result, elapsedMs, fake };
  } finally {
    await fake.close();
  }
}

/**
 * Starts a probe on a signal aborted `afterMs` later, and proves the probe settled within `withinMs` of its start and
 * left nothing open (waiting up to `leakWaitMs` for what closes a little later).
 */
export async function abortedAfter(
  afterMs: number,
  start: (signal: AbortSignal) => Promise<ProbeResult>,
  { withinMs = 500, leakWaitMs = 1000 } = {},
): Promise<ProbeResult> {
  const before = activeResources();
  const controller = new AbortController();
  const started = performance.now();
  const pending = start(controller.signal);
  setTimeout(() => controller.abort(), afterMs);
  const result = await pending;
  expect(performance.now() - started).toBeLessThan(withinMs);
  expect(await leakedResources(before, leakWaitMs)).toEqual({});
  return result;
}

/** Runs `work` (a probe, say) and proves it left no socket or timer behind. */
export async function leavingNothingOpen<T>(work: () => Promise<T>): Promise<T> {
  return (await timedLeavingNothingOpen(work)).value;
}

/**
 * leavingNothingOpen, also saying how long `work` itself took: the wait for a quiet "before" snapshot (up to 500 ms on
 * a busy machine) and the wait for closing sockets are not the probe's time, so a test that times the probe must not
 * count them.
 */
export async function timedLeavingNothingOpen<T>(work: () => Promise<T>): Promise<{ value: T; elapsedMs: number }> {
  const before = await quietResources();
  const started = performance.now();
  const value = await work();
  const elapsedMs = performance.now() - started;
  expect(await leakedResources(before)).toEqual({});
  return { value, elapsedMs };
}

/**
 * A probe's checks against one server: `check` runs it through runProbe with `base` under the test's config, proving
 * nothing stayed open; `timedCheck` also says how long the probe itself took.
 */
export function checksAgainst<Schema extends z.ZodType>(
  definition: ProbeDefinition<Schema>,
  base: Record<string, unknown>,
) {
  const timedCheck = (config: Record<string, unknown>, timeoutMs = 3000) =>
    timedLeavingNothingOpen(() => runThrough(definition, { ...base, ...config }, timeoutMs));
  const check = async (config: Record<string, unknown>, timeoutMs = 3000) =>
    (await timedCheck(config, timeoutMs)).value;
  return { check, timedCheck };
}

/** Wraps a fake's start function so that every fake it starts is closed after the test that started it. */
export function closedAfterEach<Options extends unknown[], Fake extends { close(): Promise<void> }>(
  start: (...options: Options) => Promise<Fake>,
): (...options: Options) => Promise<Fake> {
  const started: Fake[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((fake) => fake.close()));
  });
  return async (...options) => {
    const fake = await start(...options);
    started.push(fake);
    return fake;
  };
}

/** A TCP port on 127.0.0.1 with nothing listening: bound, noted, released. */
export async function closedTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A UDP port on 127.0.0.1 with nothing behind it: bound, noted, released. */
export async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Tests against the fake website over https with a throwaway certificate. */
export function describeOverHttps(name: string, tests: (site: () => FakeServer) => void): void {
  describe(`${name} over https`, () => {
    let secure: FakeServer;
    beforeAll(async () => {
      secure = await startWebsiteFake(await createSelfSignedCertificate(30));
    });
    afterAll(() => secure.close());
    tests(() => secure);
  });
}
