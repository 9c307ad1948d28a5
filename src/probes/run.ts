// Runs one probe with the guarantees every type shares: a hard timeout, no exception escaping, bounded output, no secret in the result.

import { timedOutAfter } from '../net/network-error.js';
import type { TargetGuard } from '../net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from './probe.js';

/** Caps on what a result may carry, whatever the probed server sent. */
export const RESULT_LIMITS = { messageChars: 500, errorChars: 500, dataBytes: 16 * 1024 } as const;
/** How long past its timeout a probe that ignores its signal is waited for before it is abandoned. */
const ABANDON_AFTER_MS = 1000;

export interface RunOptions {
  timeoutMs: number;
  /** Aborted on shutdown. */
  signal?: AbortSignal;
  /** What the probe may connect to (the organization's probe-target policy; ANY_TARGET on a relay). */
  guard: TargetGuard;
}

interface PreparedConfig {
  definition: ProbeDefinition;
  config?: Record<string, unknown>;
  secrets: string[];
  error?: string;
}

/**
 * Validated configs by the object they came from. The runners hand the same config object to every run of a monitor
 * (until the monitor changes), so it is validated once rather than every 30 s: less CPU and less garbage per check.
 * A config object is treated as immutable once it has been run.
 */
const prepared = new WeakMap<object, PreparedConfig>();

function prepare(definition: ProbeDefinition, rawConfig: unknown): PreparedConfig {
  const cacheable = typeof rawConfig === 'object' && rawConfig !== null;
  const cached = cacheable ? prepared.get(rawConfig) : undefined;
  if (cached && cached.definition === definition) return cached;
  const parsed = definition.config.safeParse(rawConfig);
  const entry: PreparedConfig = parsed.success
    ? {
        definition,
        config: parsed.data as Record<string, unknown>,
        secrets: secretValues(definition, parsed.data as Record<string, unknown>),
      }
    : { definition, secrets: [], error: `invalid config: ${parsed.error.issues[0]?.message ?? 'unknown problem'}` };
  if (cacheable) prepared.set(rawConfig, entry);
  return entry;
}

export async function runProbe(
  definition: ProbeDefinition,
  rawConfig: unknown,
  options: RunOptions,
): Promise<ProbeResult> {
  const { config, secrets, error } = prepare(definition, rawConfig);
  if (!config) return { ok: false, error: error as string };
  if (definition.probe === null)
    return { ok: false, error: `${definition.id} monitors receive pushes and are not probed` };

  const controller = new AbortController();
  const outer = options.signal;
  const timeoutError = timedOutAfter(options.timeoutMs);
  let settle: ((result: ProbeResult) => void) | undefined;
  let abandon: NodeJS.Timeout | undefined;
  // One timer: at the timeout the probe is aborted, and a probe that ignores its signal is abandoned a little later.
  const timer = setTimeout(() => {
    controller.abort(new Error(timeoutError));
    abandon = setTimeout(() => settle?.({ ok: false, error: timeoutError }), ABANDON_AFTER_MS);
  }, options.timeoutMs);
  // On shutdown nobody waits for a probe to notice its signal: the caller discards the result anyway. It settles before
  // the probe is aborted, or a probe that settles at once on abort would win the race with its timeout wording.
  const onShutdown = () => {
    settle?.({ ok: false, error: 'cancelled: shutting down' });
    controller.abort(outer?.reason);
  };
  const started = performance.now();
  try {
    const settled = new Promise<ProbeResult>((resolve) => {
      settle = resolve;
    });
    if (outer?.aborted) onShutdown();
    else outer?.addEventListener('abort', onShutdown, { once: true });
    const result = await Promise.race([
      definition.probe(config, { signal: controller.signal, timeoutMs: options.timeoutMs, guard: options.guard }),
      settled,
    ]);
    const elapsed = Math.round(performance.now() - started);
    return sanitize(result.latencyMs === undefined && result.ok ? { ...result, latencyMs: elapsed } : result, secrets);
  } catch (error) {
    const message = controller.signal.aborted ? timeoutError : error instanceof Error ? error.message : String(error);
    return sanitize({ ok: false, error: message }, secrets);
  } finally {
    clearTimeout(timer);
    clearTimeout(abandon);
    outer?.removeEventListener('abort', onShutdown);
  }
}

function secretValues(definition: ProbeDefinition, config: Record<string, unknown>): string[] {
  const values: string[] = [];
  for (const field of definition.secrets) {
    const value = config[field];
    if (typeof value === 'string' && value.length > 0) values.push(value);
    else if (value && typeof value === 'object')
      for (const v of Object.values(value)) if (typeof v === 'string' && v.length > 3) values.push(v);
  }
  return values;
}

function scrub(text: string, secrets: string[], max: number): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

function sanitize(result: ProbeResult, secrets: string[]): ProbeResult {
  const out: ProbeResult = { ok: result.ok };
  if (result.latencyMs !== undefined) out.latencyMs = Math.max(0, Math.round(result.latencyMs));
  if (result.message) out.message = scrub(result.message, secrets, RESULT_LIMITS.messageChars);
  if (result.error) out.error = scrub(result.error, secrets, RESULT_LIMITS.errorChars);
  if (!result.ok && !out.error) out.error = 'check failed';
  if (result.degraded) out.degraded = true;
  if (result.data) {
    let json = JSON.stringify(result.data);
    // JSON escapes a quote or a backslash in a secret, so the text is searched for that form too; the strings are then
    // scrubbed one by one, where a secret appears as itself.
    if (secrets.some((s) => json.includes(s) || json.includes(JSON.stringify(s).slice(1, -1))))
      json = JSON.stringify(scrubStrings(JSON.parse(json), secrets));
    out.data = json.length <= RESULT_LIMITS.dataBytes ? JSON.parse(json) : { truncated: true };
  }
  return out;
}

function scrubStrings(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') return scrub(value, secrets, Number.POSITIVE_INFINITY);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      scrub(key, secrets, Number.POSITIVE_INFINITY),
      scrubStrings(item, secrets),
    ]),
  );
}
