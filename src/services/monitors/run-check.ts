// "Check now" and "test this check": one probe run with the edge runner's timeout, result caps and probe-target policy.
import { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { MONITOR_STATES } from '../../domain/monitor-type.js';
import { probeTargetPolicies } from '../../domain/organization.js';
import type { SecurityOptions } from '../../domain/security.js';
import { PUBLIC_TARGETS_ONLY, type TargetGuard, targetGuard } from '../../net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from '../../probes/probe.js';
import { probeDefinition } from '../../probes/registry.js';
import { runProbe } from '../../probes/run.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import type { IngestContext } from '../runtime.js';
import { requireMonitor } from './read.js';
import { monitorCreateSchema } from './schema.js';
import { probeOutcomeFields } from './view.js';

/** What running a probe needs besides the store: ingest (to record "check now") and the global probe-target policy. */
export interface ProbeRunContext extends IngestContext {
  security: Pick<SecurityOptions, 'probePrivateTargets'>;
}

export const probeRunSchema = z.object({
  ...probeOutcomeFields('players, maxPlayers, version, …'),
  degraded: z
    .boolean()
    .describe('The check passed but is slower than degradedLatencyMs, or the probe reports degraded service.'),
});

export const checkNowSchema = probeRunSchema.extend({
  checkedAt: z.number().int().describe('When the check ran (epoch ms).'),
  state: z.enum(MONITOR_STATES).describe("The monitor's state after this result."),
});

export type ProbeRun = z.infer<typeof probeRunSchema>;
export type CheckNow = z.infer<typeof checkNowSchema>;

/** Runs an edge monitor's probe now and records the result like the edge runner's: stored, state derived, events published. */
export async function checkMonitorNow(ctx: ProbeRunContext, input: { id: string }): Promise<CheckNow> {
  const { id } = parseInput(z.object({ id: reference() }), input);
  const monitor = await requireMonitor(ctx, { id });
  if (monitor.runOn !== 'edge') throw notOnEdge(monitor.key, monitor.runOn);
  if (!monitor.enabled)
    throw new ConflictError(`monitor "${monitor.key}" is paused; resume it (enabled: true) to check it`);
  const checkedAt = ctx.clock.now();
  const result = await probeOnce(ctx, probeDefinition(monitor.type), monitor.config, monitor.timeoutMs);
  const outcome = await ctx.ingest.record({ ...result, monitorId: monitor.id, checkedAt, source: 'edge' });
  return {
    ...view(result, monitor.degradedLatencyMs),
    checkedAt,
    state: outcome.stored ? outcome.state : (await requireMonitor(ctx, { id })).state,
  };
}

/** Validates a monitor body as on create and runs its probe once; nothing is stored. */
export async function testMonitor(ctx: ProbeRunContext, input: z.input<typeof monitorCreateSchema>): Promise<ProbeRun> {
  const entry = parseInput(monitorCreateSchema, input);
  if (entry.runOn !== 'edge') throw notOnEdge(entry.key, entry.runOn);
  const result = await probeOnce(ctx, probeDefinition(entry.type), entry.config, entry.timeoutMs);
  return view(result, entry.degradedLatencyMs ?? null);
}

function notOnEdge(key: string, runOn: 'relay' | 'push'): ConflictError {
  return new ConflictError(
    runOn === 'relay'
      ? `monitor "${key}" runs on a relay: only its relay can reach what it checks, so it is checked there, on its schedule`
      : `monitor "${key}" is a push monitor: its results arrive as heartbeats, there is nothing to run`,
  );
}

async function probeOnce(
  ctx: ProbeRunContext,
  definition: ProbeDefinition,
  config: unknown,
  timeoutMs: number,
): Promise<ProbeResult> {
  return runProbe(definition, config, { timeoutMs, guard: await probeTargetGuard(ctx) });
}

/** The organization's probe-target policy, decided as the edge runner decides it (panel discovery uses it too). */
export async function probeTargetGuard(ctx: ServiceContext & Pick<ProbeRunContext, 'security'>): Promise<TargetGuard> {
  const policies = probeTargetPolicies(await ctx.store.organizations.list(), ctx.security.probePrivateTargets);
  const policy = policies.get(organizationOf(ctx));
  return policy === undefined ? PUBLIC_TARGETS_ONLY : targetGuard(policy);
}

function view(result: ProbeResult, degradedLatencyMs: number | null): ProbeRun {
  const latencyMs = result.latencyMs ?? null;
  const slow = degradedLatencyMs !== null && latencyMs !== null && latencyMs > degradedLatencyMs;
  return {
    ok: result.ok,
    latencyMs,
    message: result.message ?? null,
    error: result.error ?? null,
    data: result.data ?? null,
    degraded: result.ok && (result.degraded === true || slow),
  };
}
