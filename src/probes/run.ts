// Runs one probe with the guarantees every type shares: a hard timeout, no exception escaping, bounded output, no secret in the result.

import { formatSeconds } from './network-error.js';
import type { ProbeDefinition, ProbeResult } from './probe.js';

/** Caps on what a result may carry, whatever the probed server sent. */
export const RESULT_LIMITS = { messageChars: 500, errorChars: 500, dataBytes: 16 * 1024 } as const;
/** How long past its timeout a probe that ignores its signal is waited for before it is abandoned. */
const ABANDON_AFTER_MS = 1000;

export interface RunOptions {
  timeoutMs: number;
  /** Aborted on shutdown. */
  signal?: AbortSignal;
}

export async function runProbe(definition: ProbeDefinition, rawConfig: unknown, options: RunOptions): Promise<ProbeResult> {
  const parsed = definition.config.safeParse(rawConfig);
  if (!parsed.success) return { ok: false, error: `invalid config: ${parsed.error.issues[0]?.message ?? 'unknown problem'}` };
  if (definition.probe === null) return { ok: false, error: `${definition.id} monitors receive pushes and are not probed` };
  const config = parsed.data as Record<string, unknown>;

  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const timeoutError = `timed out after ${formatSeconds(options.timeoutMs)}`;
  const timer = setTimeout(() => controller.abort(new Error(timeoutError)), options.timeoutMs);
  let abandon: NodeJS.Timeout | undefined;
  let stopListening = () => {};
  const started = performance.now();
  try {
    const abandoned = new Promise<ProbeResult>((resolve) => {
      abandon = setTimeout(() => resolve({ ok: false, error: timeoutError }), options.timeoutMs + ABANDON_AFTER_MS);
      // On shutdown nobody waits for a probe to notice its signal: the caller discards the result anyway.
      const outer = options.signal;
      if (outer) {
        const onShutdown = () => resolve({ ok: false, error: 'cancelled: shutting down' });
        if (outer.aborted) onShutdown();
        else outer.addEventListener('abort', onShutdown, { once: true });
        stopListening = () => outer.removeEventListener('abort', onShutdown);
      }
    });
    const result = await Promise.race([
      definition.probe(config, { signal: controller.signal, timeoutMs: options.timeoutMs }),
      abandoned,
    ]);
    const elapsed = Math.round(performance.now() - started);
    return sanitize({ ...result, latencyMs: result.latencyMs ?? (result.ok ? elapsed : undefined) }, secretValues(definition, config));
  } catch (error) {
    const message = controller.signal.aborted ? timeoutError : error instanceof Error ? error.message : String(error);
    return sanitize({ ok: false, error: message }, secretValues(definition, config));
  } finally {
    clearTimeout(timer);
    clearTimeout(abandon);
    stopListening();
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

function secretValues(definition: ProbeDefinition, config: Record<string, unknown>): string[] {
  const values: string[] = [];
  for (const field of definition.secrets) {
    const value = config[field];
    if (typeof value === 'string' && value.length > 0) values.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) if (typeof v === 'string' && v.length > 3) values.push(v);
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
    if (secrets.some((s) => json.includes(s))) json = scrub(json, secrets, Number.POSITIVE_INFINITY);
    out.data = json.length <= RESULT_LIMITS.dataBytes ? JSON.parse(json) : { truncated: true };
  }
  return out;
}
