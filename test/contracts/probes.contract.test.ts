// The contract every monitor type of the probe registry keeps: it stops on abort and at its timeout in the one wording, leaves nothing open, shows no secret, and its config reads back as stored.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { timedOutAfter } from '../../src/net/network-error.js';
import { ANY_TARGET } from '../../src/net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from '../../src/probes/probe.js';
import { probeRegistry } from '../../src/probes/registry.js';
import { runProbe } from '../../src/probes/run.js';
import type { BlackHole } from '../fakes/black-holes.js';
import { leakedResources, quietResources } from '../fakes/handles.js';
import { PROBE_FIXTURES, type ProbeFixture } from './probes-fixtures.js';

/** Long enough that a probe settling on abort is plainly not settling on its timeout. */
const ABORT_TIMEOUT_MS = 2000;
/** How soon after its abort a probe must settle. */
const PROMPTLY_MS = 250;
/** The short timeout whose wording is checked: 'timed out after 0.3 s'. */
const SHORT_TIMEOUT_MS = 300;
/** run.ts abandons a probe that ignores its signal a second after the timeout; a probe that honours it is done well before. */
const HONOURED_WITHIN_MS = SHORT_TIMEOUT_MS + 500;

const registry = Object.entries(probeRegistry) as [string, ProbeDefinition][];

describe('the probe contract', () => {
  it('has a fixture for every type of the registry, and only those', () => {
    const missing = registry.map(([type]) => type).filter((type) => PROBE_FIXTURES[type] === undefined);
    expect(missing, 'types of probeRegistry without a fixture in test/contracts/probes-fixtures.ts').toEqual([]);
    const stale = Object.keys(PROBE_FIXTURES).filter((type) => !(type in probeRegistry));
    expect(stale, 'fixtures in test/contracts/probes-fixtures.ts for types probeRegistry no longer has').toEqual([]);
  });

  for (const [type, definition] of registry) {
    const fixture = PROBE_FIXTURES[type];
    describe(type, () => {
      // A type without a fixture fails here, by name, rather than passing with no checks at all.
      if (!fixture)
        return void it('has a fixture', () =>
          expect.fail(`add a fixture for ${type} to test/contracts/probes-fixtures.ts`));
      describeRoundTrip(definition, fixture);
      describeDeclarations(definition);
      if (definition.probe === null) describePushOnly(definition, fixture);
      else describeProbe(definition, fixture);
      if (definition.secrets.length > 0) describeSecrets(definition, fixture);
    });
  }
});

function describeRoundTrip(definition: ProbeDefinition, fixture: ProbeFixture): void {
  it('reads its example configs back as stored: parsed again, and through JSON', () => {
    for (const example of [fixture.example({ host: '127.0.0.1', port: 1 }), ...(fixture.moreExamples ?? [])]) {
      const parsed = definition.config.parse(example);
      expect(definition.config.parse(parsed), 'parsing the parsed config').toStrictEqual(parsed);
      const stored = JSON.parse(JSON.stringify(parsed));
      expect(stored, 'the parsed config through JSON').toStrictEqual(parsed);
      expect(definition.config.parse(stored), 'the stored config parsed').toStrictEqual(parsed);
    }
  });
}

/** Fields whose names say they address a server: each must be a declared target. */
const ADDRESS_FIELD = /url|host|port|resolver/i;

function describeDeclarations(definition: ProbeDefinition): void {
  it(`declares its secrets (${definition.secrets.join(', ') || 'none'}) and where they go (${definition.targets.join(', ') || 'nowhere'}) among its config fields`, () => {
    expect(definition.config, 'a config schema that is an object').toBeInstanceOf(z.ZodObject);
    const fields = Object.keys((definition.config as unknown as z.ZodObject).shape);
    expect(
      definition.secrets.filter((field) => !fields.includes(field)),
      'secrets that are not config fields',
    ).toEqual([]);
    expect(
      definition.targets.filter((field) => !fields.includes(field)),
      'targets that are not config fields',
    ).toEqual([]);
    expect(
      definition.targets.filter((field) => definition.secrets.includes(field)),
      'fields both secret and target',
    ).toEqual([]);
    const addresses = fields.filter((field) => ADDRESS_FIELD.test(field));
    expect(
      addresses.filter((field) => !definition.targets.includes(field)),
      'address fields not declared as targets',
    ).toEqual([]);
    if (definition.secrets.length > 0)
      expect(definition.targets.length, 'a type with secrets says where they go').toBeGreaterThan(0);
  });
}

function describePushOnly(definition: ProbeDefinition, fixture: ProbeFixture): void {
  it('is push-only, and runProbe says so', async () => {
    expect(fixture.blackHole, 'a push-only type has no server to probe').toBeNull();
    expect(definition.runsOn).toEqual(['push']);
    const result = await runProbe(definition, fixture.example({ host: '127.0.0.1', port: 1 }), {
      timeoutMs: SHORT_TIMEOUT_MS,
      guard: ANY_TARGET,
    });
    expect(result).toEqual({ ok: false, error: `${definition.id} monitors receive pushes and are not probed` });
  });
}

function describeProbe(definition: ProbeDefinition, fixture: ProbeFixture): void {
  const probe = definition.probe as NonNullable<ProbeDefinition['probe']>;
  let hole: BlackHole | undefined;
  let before: Map<string, number>;

  beforeAll(async () => {
    expect(fixture.blackHole, 'a type with a probe needs a black hole').not.toBeNull();
    await fixture.warmUp?.();
  });
  /** Starts the black hole for one test and gives the example config aimed at it. */
  const enter = async () => {
    const started = await (fixture.blackHole as () => Promise<BlackHole>)();
    hole = started;
    before = await quietResources();
    return { hole: started, config: fixture.example(started) };
  };
  afterEach(async () => {
    await hole?.close();
    hole = undefined;
  });
  /** The probe hung up on the black hole and holds nothing: no connection, no socket, no timer, once the type's own libraries are done. */
  const expectNothingOpen = async (hole: BlackHole, waitMs: number) => {
    await vi.waitFor(() => expect(hole.openConnections(), 'connections still open to the black hole').toBe(0));
    expect(await leakedResources(before, waitMs)).toEqual({});
  };

  it('settles promptly when its signal aborts, and closes what it opened', async () => {
    const { hole, config } = await enter();
    const controller = new AbortController();
    const pending = probe(definition.config.parse(config), {
      signal: controller.signal,
      timeoutMs: ABORT_TIMEOUT_MS,
      guard: ANY_TARGET,
    });
    await hole.reached();
    const abortedAt = performance.now();
    controller.abort();
    const result = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    expect(result).toMatchObject({ ok: false, error: timedOutAfter(ABORT_TIMEOUT_MS) });
    await expectNothingOpen(hole, ABORT_TIMEOUT_MS);
  });

  it('closes what it opened when runProbe is cancelled on shutdown', async () => {
    const { hole, config } = await enter();
    const shutdown = new AbortController();
    const pending = runProbe(definition, config, {
      timeoutMs: ABORT_TIMEOUT_MS,
      signal: shutdown.signal,
      guard: ANY_TARGET,
    });
    await hole.reached();
    shutdown.abort(new Error('shutting down'));
    expect(await pending).toEqual({ ok: false, error: 'cancelled: shutting down' });
    await expectNothingOpen(hole, ABORT_TIMEOUT_MS);
  });

  it(`says '${timedOutAfter(SHORT_TIMEOUT_MS)}' at a timeout of ${SHORT_TIMEOUT_MS} ms, honouring its signal`, async () => {
    const { hole, config } = await enter();
    const started = performance.now();
    const result = await runProbe(definition, config, { timeoutMs: SHORT_TIMEOUT_MS, guard: ANY_TARGET });
    expect(performance.now() - started, 'settled by the probe, not abandoned by run.ts').toBeLessThan(
      HONOURED_WITHIN_MS,
    );
    expect(result).toMatchObject({ ok: false, error: timedOutAfter(SHORT_TIMEOUT_MS) });
    expect(result.message).toBeUndefined();
    await expectNothingOpen(hole, SHORT_TIMEOUT_MS);
  });
}

function describeSecrets(definition: ProbeDefinition, fixture: ProbeFixture): void {
  it(`never shows its secrets (${definition.secrets.join(', ')}), even when the server echoes them`, async () => {
    expect(fixture.secretEcho, `a fixture echoing ${definition.secrets.join(', ')} back`).toBeDefined();
    const echo = await (fixture.secretEcho as () => ReturnType<NonNullable<ProbeFixture['secretEcho']>>)();
    try {
      for (const config of echo.configs) {
        const secrets = secretValues(definition, config);
        expect(secrets.length, 'configs of the echo hold the secrets').toBeGreaterThan(0);
        const result = await runProbe(definition, config, { timeoutMs: 1500, guard: ANY_TARGET });
        expect(showing(result, secrets), `where ${JSON.stringify(result)} shows a secret`).toEqual([]);
      }
    } finally {
      await echo.close();
    }
  });
}

/** The values of the fields a definition lists as secret: a string, or the strings of a record (http's headers). */
function secretValues(definition: ProbeDefinition, config: Record<string, unknown>): string[] {
  return definition.secrets.flatMap((field) => {
    const value = config[field];
    if (typeof value === 'string') return [value];
    return value && typeof value === 'object'
      ? Object.values(value).filter((v): v is string => typeof v === 'string')
      : [];
  });
}

/** The places of a result that show one of the secrets: message, error, the data as JSON, and each key and string in the data. */
function showing(result: ProbeResult, secrets: string[]): string[] {
  const places: [string, string][] = [
    ['message', result.message ?? ''],
    ['error', result.error ?? ''],
    ['data as JSON', JSON.stringify(result.data ?? {})],
    ...texts(result.data, 'data'),
  ];
  return places.filter(([, text]) => secrets.some((secret) => text.includes(secret))).map(([place]) => place);
}

/** Every key and string inside a value, by its path. */
function texts(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]): [string, string][] => [
    [`a key of ${path}`, key],
    ...texts(item, `${path}.${key}`),
  ]);
}
