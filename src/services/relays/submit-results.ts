// Takes a relay's batch of results: each is checked on its own (depth, shape, assignment, time) and the good ones take the one ingest path.
import { formatIssuePath } from '../../domain/issue-path.js';
import { tooDeepMessage, valueNestsDeeper } from '../../domain/json-depth.js';
import type { Relay } from '../../domain/organization.js';
import { storableText } from '../../domain/storable-text.js';
import { RELAY_LIMITS, type ResultsResponse, relayResultSchema } from '../../relay/protocol.js';
import type { IngestInput } from '../../runner/ingest.js';
import type { IngestContext } from '../runtime.js';

/**
 * Resolves once every accepted result is committed; a duplicate (same id, already stored) counts as accepted.
 * `maxAgeMs`: results checked longer ago are rejected (the check retention).
 */
export async function submitRelayResults(
  ctx: IngestContext,
  {
    relay,
    results,
    maxAgeMs = RELAY_LIMITS.maxAgeMs,
  }: { relay: Relay; results: unknown[]; maxAgeMs?: number | undefined },
): Promise<ResultsResponse> {
  const assigned = await ctx.store.schedule.idsRunningOnRelay(relay.id);
  const now = ctx.clock.now();
  const oldest = now - maxAgeMs;
  const rejected: ResultsResponse['rejected'] = [];
  const inputs: IngestInput[] = [];
  const positions: number[] = [];
  /** Refusals by kind, for the metrics (warden_relay_results_total). */
  const refused = { invalid: 0, not_assigned: 0, out_of_window: 0 };
  const refuse = (index: number, kind: keyof typeof refused, reason: string) => {
    rejected.push({ index, reason });
    refused[kind]++;
  };

  results.forEach((raw, index) => {
    // Before the schema: nothing recursive may walk a result nested thousands deep.
    if (valueNestsDeeper(raw, RELAY_LIMITS.resultDepth)) {
      refuse(index, 'invalid', `(root): ${tooDeepMessage(RELAY_LIMITS.resultDepth)}`);
      return;
    }
    const parsed = relayResultSchema.safeParse(raw);
    if (!parsed.success) {
      refuse(index, 'invalid', parsed.error.issues.map((i) => `${formatIssuePath(i.path)}: ${i.message}`).join('; '));
      return;
    }
    const r = parsed.data;
    if (!assigned.has(r.monitorId)) {
      refuse(index, 'not_assigned', `monitor ${JSON.stringify(r.monitorId)} is not assigned to this relay`);
      return;
    }
    if (r.checkedAt !== undefined && r.checkedAt > now + RELAY_LIMITS.futureSkewMs) {
      refuse(
        index,
        'out_of_window',
        `checkedAt: ${new Date(r.checkedAt).toISOString()} is in the future (server time ${new Date(now).toISOString()})`,
      );
      return;
    }
    if (r.checkedAt !== undefined && r.checkedAt < oldest) {
      refuse(
        index,
        'out_of_window',
        `checkedAt: ${new Date(r.checkedAt).toISOString()} is older than the check retention`,
      );
      return;
    }
    inputs.push({
      monitorId: r.monitorId,
      ok: r.ok,
      latencyMs: r.latencyMs,
      // A NUL would make PostgreSQL refuse the whole group commit, this batch's other results and others' included.
      message: r.message == null ? r.message : storableText(r.message),
      error: r.error == null ? r.error : storableText(r.error),
      data: r.data,
      degraded: r.degraded,
      // A clock slightly ahead of ours is brought back to now, so "latest result" ordering stays sane.
      checkedAt: r.checkedAt === undefined ? undefined : Math.min(r.checkedAt, now),
      resultId: r.id,
      source: 'relay',
      // A monitor with several locations keeps this relay's result as its location's (its key names it in alerts).
      location: relay.id,
      locationLabel: relay.key,
    });
    positions.push(index);
  });

  const outcomes = inputs.length > 0 ? await ctx.ingest.recordMany(inputs) : [];
  let accepted = 0;
  let duplicates = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome.stored) accepted++;
    else if (outcome.reason === 'duplicate') {
      accepted++;
      duplicates++;
    } else
      refuse(
        positions[i] as number,
        'not_assigned',
        `monitor ${JSON.stringify(outcome.monitorId)} is not assigned to this relay`,
      );
  });
  rejected.sort((a, b) => a.index - b.index);
  if (ctx.metrics) {
    ctx.metrics.relayResults('accepted', accepted - duplicates);
    ctx.metrics.relayResults('duplicate', duplicates);
    for (const [kind, count] of Object.entries(refused)) ctx.metrics.relayResults(kind as keyof typeof refused, count);
  }
  return { accepted, duplicates, rejected };
}
