// runProbe's guarantees, with stand-in probes: the config checked once, the timeout and its wording, shutdown, thrown errors, secrets.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANY_TARGET } from '../net/target-guard.js';
import { defineProbe, type ProbeDefinition } from './probe.js';
import { runProbe } from './run.js';

function fakeProbe(probe: ProbeDefinition['probe'], secrets: string[] = []): ProbeDefinition {
  return defineProbe({
    id: 'tcp',
    label: 'fake',
    runsOn: ['edge'],
    config: z.object({ port: z.number().int().min(1).max(65535), password: z.string().optional() }).strict(),
    secrets,
    targets: ['port'],
    probe,
  }) as unknown as ProbeDefinition;
}

describe('runProbe', () => {
  it('reports an invalid config without running the probe', async () => {
    let ran = 0;
    const definition = fakeProbe(async () => {
      ran++;
      return { ok: true };
    });
    const result = await runProbe(definition, { port: 70000 }, { timeoutMs: 1000, guard: ANY_TARGET });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^invalid config: /);
    expect(ran).toBe(0);
  });

  it('validates a config object once and a changed config again', async () => {
    const seen: unknown[] = [];
    const definition = fakeProbe(async (config) => {
      seen.push(config);
      return { ok: true };
    });
    const config = { port: 25565 };
    await runProbe(definition, config, { timeoutMs: 1000, guard: ANY_TARGET });
    await runProbe(definition, config, { timeoutMs: 1000, guard: ANY_TARGET });
    // The same validated object both times: it was parsed once.
    expect(seen[0]).toBe(seen[1]);
    const changed = { port: 25566 };
    await runProbe(definition, changed, { timeoutMs: 1000, guard: ANY_TARGET });
    expect(seen[2]).toEqual({ port: 25566 });
    // The cache belongs to the definition: another type validates the same object by its own schema.
    const other = fakeProbe(async () => ({ ok: true }));
    expect((await runProbe(other, config, { timeoutMs: 1000, guard: ANY_TARGET })).ok).toBe(true);
  });

  it('times out a probe that honours its signal, with a message in seconds', async () => {
    const definition = fakeProbe(
      (_config, { signal }) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, error: 'aborted' }))),
    );
    const started = performance.now();
    const result = await runProbe(definition, { port: 1 }, { timeoutMs: 100, guard: ANY_TARGET });
    expect(result).toEqual({ ok: false, error: 'aborted' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('abandons a probe that ignores its signal a second after its timeout', async () => {
    const definition = fakeProbe(() => new Promise(() => {}));
    const started = performance.now();
    const result = await runProbe(definition, { port: 1 }, { timeoutMs: 100, guard: ANY_TARGET });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.1 s' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('answers at once on shutdown, even for a probe that ignores its signal', async () => {
    const definition = fakeProbe(() => new Promise(() => {}));
    const shutdown = new AbortController();
    const running = runProbe(
      definition,
      { port: 1 },
      { timeoutMs: 60_000, signal: shutdown.signal, guard: ANY_TARGET },
    );
    shutdown.abort(new Error('shutting down'));
    expect(await running).toEqual({ ok: false, error: 'cancelled: shutting down' });
    const already = await runProbe(
      definition,
      { port: 1 },
      { timeoutMs: 60_000, signal: shutdown.signal, guard: ANY_TARGET },
    );
    expect(already.error).toBe('cancelled: shutting down');
  });

  it('turns a thrown error into a result and scrubs secrets from everything it returns', async () => {
    const throwing = fakeProbe(
      async (config) => {
        throw new Error(`login failed with ${String((config as { password?: string }).password)}`);
      },
      ['password'],
    );
    const thrown = await runProbe(throwing, { port: 1, password: 'hunter22' }, { timeoutMs: 1000, guard: ANY_TARGET });
    expect(thrown).toEqual({ ok: false, error: 'login failed with ***' });
    const leaking = fakeProbe(
      async (config) => {
        const { password } = config as { password?: string };
        return { ok: true, message: `pw ${String(password)}`, data: { echo: password } };
      },
      ['password'],
    );
    const leaked = await runProbe(leaking, { port: 1, password: 'hunter22' }, { timeoutMs: 1000, guard: ANY_TARGET });
    expect(JSON.stringify(leaked)).not.toContain('hunter22');
    expect(leaked.latencyMs).toBeGreaterThanOrEqual(0);
  });
});
