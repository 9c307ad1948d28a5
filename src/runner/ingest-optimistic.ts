// A batch committed in one statement where the store offers it (store/optimistic-ingest.ts, PostgreSQL): when its
// results only add checks and move their monitors' states on — no change of state, nothing to notify or record beside
// — which is nearly every batch. Anything else, or states that keep moving under it, takes the locking transaction.
import type { TlsNotices } from '../notify/outbox/certificates.js';
import type { Store } from '../store/index.js';
import type { IngestInput, IngestSilence } from './ingest.js';
import { applyBatch } from './ingest-apply.js';
import type { Committed } from './ingest-commit.js';
import { usualPlayerIds } from './ingest-players.js';

/** Tries per batch: each try that finds states moved reads them again in the same statement. */
const TRIES = 3;
/**
 * After a batch whose states kept moving under it (every try stale), batches take the locking transaction for this
 * long: where several processes write the same monitors at once, each optimistic try would only add a statement.
 */
export const CONTENDED_BACKOFF_MS = 1000;
/** Per store: until when (performance.now()) batches take the locking path after contention. */
const contendedUntil = new WeakMap<object, number>();
const NO_USUAL_PLAYERS: ReadonlyMap<string, number> = new Map();

/** The batch committed, or null: the caller commits it in a transaction (nothing was written). */
export async function commitOptimistic(
  store: Store,
  inputs: readonly (IngestInput | IngestSilence)[],
  now: number,
  tls: TlsNotices | undefined,
): Promise<Committed | null> {
  const states = store.optimisticIngest;
  if (!states || inputs.some((i) => i.kind === 'silence')) return null;
  if ((contendedUntil.get(states) ?? 0) > performance.now()) return null;
  const ids = [...new Set(inputs.map((i) => i.monitorId))];
  for (let i = 0; i < TRIES; i++) {
    const monitors = await states.read(ids);
    // An unknown monitor, a multi-location one (its checks go to `checks` with their location), a certificate or
    // player count to judge: the locking path.
    if (monitors.size < ids.length || [...monitors.values()].some((m) => m.vantage)) return null;
    if ((tls && tls.candidatesOf(inputs, monitors, now).length > 0) || usualPlayerIds(monitors, inputs).size > 0)
      return null;
    const applied = applyBatch(monitors, inputs, now, new Set(), NO_USUAL_PLAYERS);
    if (applied.changes.length > 0 || applied.players.size > 0 || !states.takes(applied.rows)) return null;
    // Every monitor of the batch is written, moved or not (a late result leaves it as it was): the statement then
    // checks the version of each one the batch was computed from.
    const written = await states.write(applied.rows, [...monitors.values()]);
    if (written === 'written') return { outcomes: applied.outcomes, events: applied.events, enqueued: 0 };
    if (written === 'duplicate') return null;
  }
  contendedUntil.set(states, performance.now() + CONTENDED_BACKOFF_MS);
  return null;
}
