// One ingest transaction: the results and silences of a batch applied to their monitors' states, stored, and the events to publish.

import type { WardenEvent } from '../bus/events.js';
import type { TlsNotices } from '../notify/outbox/certificates.js';
import type { NotificationOutbox } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';
import type { IngestInput, IngestOutcome, IngestSilence } from './ingest.js';
import { applyBatch, stateChanges } from './ingest-apply.js';
import { commitOptimistic } from './ingest-optimistic.js';
import { publishPlayerFacts, recordGameChanges, usualPlayers } from './ingest-players.js';

export interface Committed {
  outcomes: IngestOutcome[];
  events: WardenEvent[];
  enqueued: number;
}

/**
 * Each state change is recorded (the monitor's state history) in the same transaction as the state it leads to. With
 * an outbox, the notifications the state changes call for are enqueued in the same transaction: committed with
 * the change, or not at all; with TLS notices, so are those of the certificates the results tell of. `enqueued`
 * counts the new deliveries. A batch that only stores checks and moves states on (no change of state, nothing to
 * tell) is committed in one statement where the store can (PostgreSQL: ingest-optimistic.ts).
 */
export async function commit(
  store: Store,
  inputs: (IngestInput | IngestSilence)[],
  now: number,
  outbox?: NotificationOutbox,
  tls?: TlsNotices,
): Promise<Committed> {
  const quick = await commitOptimistic(store, inputs, now, tls);
  if (quick) return quick;
  const afterCommit: (() => void)[] = [];
  const committed = await store.transaction(async (tx) => {
    const monitors = new Map(
      (await tx.monitorStates.find([...new Set(inputs.map((i) => i.monitorId))])).map((m) => [m.id, m]),
    );
    const certificates = tls ? tls.candidatesOf(inputs, monitors, now) : [];
    const replayable = inputs.flatMap((i) => (i.kind !== 'silence' && i.resultId !== undefined ? [i] : []));
    const seen = replayable.length > 0 ? await storedResults(tx, replayable, now) : new Set<string>();
    const usual = await usualPlayers(tx, monitors, inputs, now);
    const { outcomes, events, rows, touched, changes, players } = applyBatch(monitors, inputs, now, seen, usual);
    await tx.checks.write(rows, [...touched]);
    if (changes.length > 0) await tx.monitorStates.appendChanges(changes);
    let enqueued = outbox ? await outbox.enqueue(tx, stateChanges(events, monitors), now) : 0;
    await recordGameChanges(tx, players, monitors);
    if (outbox) enqueued += await publishPlayerFacts(tx, outbox, players, now);
    if (tls && certificates.length > 0) {
      const told = await tls.publish(tx, certificates, now);
      enqueued += told.enqueued;
      afterCommit.push(told.remember);
    }
    return { outcomes, events, enqueued };
  });
  // The states this commit moved are no longer those kept for the next one (they have a new version).
  store.optimisticIngest?.forget(inputs.map((i) => i.monitorId));
  for (const done of afterCommit) done();
  return committed;
}

/** Which of these relay results are stored already, among the checks of the batch's times (a replay keeps its time). */
function storedResults(store: Store, inputs: readonly IngestInput[], now: number): Promise<Set<string>> {
  const times = inputs.map((i) => i.checkedAt ?? now);
  return store.checks.storedResultKeys(
    inputs.map((i) => ({ monitorId: i.monitorId, resultId: i.resultId as string })),
    { from: Math.min(...times), to: Math.max(...times) },
  );
}
