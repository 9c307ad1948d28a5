// One ingest transaction: the results and silences of a batch applied to their monitors' states, stored, and the events to publish.

import type { WardenEvent } from '../bus/events.js';
import type { CheckRow } from '../domain/check.js';
import { newId } from '../domain/ids.js';
import type { LatestResult, MonitorStateChange, MonitorStateRow, MonitorVantage } from '../domain/monitor.js';
import { PLAYER_NAMES_KEY, playerNamesOf, withoutPlayerNames } from '../domain/player-names.js';
import { nextMonitorState } from '../domain/states.js';
import { storableText } from '../domain/storable-text.js';
import type { StateChange } from '../notify/events/monitors.js';
import type { TlsNotices } from '../notify/outbox/certificates.js';
import type { NotificationOutbox } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';
import type { IngestInput, IngestOutcome, IngestSilence } from './ingest.js';
import { locationOf, locationStep } from './ingest-locations.js';
import {
  applyPlayerAlerts,
  type PlayerFacts,
  publishPlayerFacts,
  recordGameChanges,
  usualPlayers,
} from './ingest-players.js';

/**
 * Each state change is recorded (the monitor's state history) in the same transaction as the state it leads to. With
 * an outbox, the notifications the state changes call for are enqueued in the same transaction: committed with
 * the change, or not at all; with TLS notices, so are those of the certificates the results tell of. `enqueued`
 * counts the new deliveries.
 */
export async function commit(
  store: Store,
  inputs: (IngestInput | IngestSilence)[],
  now: number,
  outbox?: NotificationOutbox,
  tls?: TlsNotices,
): Promise<{ outcomes: IngestOutcome[]; events: WardenEvent[]; enqueued: number }> {
  const afterCommit: (() => void)[] = [];
  const committed = await store.transaction(async (tx) => {
    const monitors = new Map(
      (await tx.monitorStates.find([...new Set(inputs.map((i) => i.monitorId))])).map((m) => [m.id, m]),
    );
    const certificates = tls ? tls.candidatesOf(inputs, monitors, now) : [];
    const resultIds = inputs.flatMap((i) => (i.kind !== 'silence' && i.resultId !== undefined ? [i.resultId] : []));
    const seen = resultIds.length > 0 ? await tx.checks.storedResultKeys(resultIds) : new Set<string>();
    const outcomes: IngestOutcome[] = [];
    const events: WardenEvent[] = [];
    const rows: CheckRow[] = [];
    const touched = new Set<MonitorStateRow>();
    const changes: MonitorStateChange[] = [];
    const players: PlayerFacts = new Map();
    const usual = await usualPlayers(tx, monitors, inputs, now);
    for (const input of inputs) {
      const monitor = monitors.get(input.monitorId);
      if (!monitor) outcomes.push({ stored: false, monitorId: input.monitorId, reason: 'unknown monitor' });
      else if (input.kind === 'silence') outcomes.push(applySilence(monitor, input, now, events, touched, changes));
      else outcomes.push(applyResult(monitor, input, now, seen, { events, rows, touched, changes, players, usual }));
    }
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
  for (const done of afterCommit) done();
  return committed;
}

/** What a batch's results add up to: events to publish, checks to store, monitors whose state moved and the changes. */
interface BatchOutput {
  events: WardenEvent[];
  rows: CheckRow[];
  touched: Set<MonitorStateRow>;
  changes: MonitorStateChange[];
  /** What the monitors' player alerts found. */
  players: PlayerFacts;
  /** The usual players of the monitors that may begin an empty spell. */
  usual: ReadonlyMap<string, number>;
}

function applyResult(
  monitor: MonitorStateRow,
  input: IngestInput,
  now: number,
  seen: Set<string>,
  { events, rows, touched, changes, players, usual }: BatchOutput,
): IngestOutcome {
  if (input.resultId !== undefined) {
    const key = `${input.monitorId}\u0000${input.resultId}`;
    if (seen.has(key)) return { stored: false, monitorId: input.monitorId, reason: 'duplicate' };
    seen.add(key);
  }
  const checkedAt = input.checkedAt ?? now;
  const row: CheckRow = {
    monitorId: monitor.id,
    checkedAt,
    ok: input.ok,
    degraded: false,
    latencyMs: input.latencyMs ?? null,
    // A game server's MOTD may hold NUL characters, which PostgreSQL refuses (and the whole group commit with them).
    message: input.message == null ? null : storableText(input.message),
    error: input.error == null ? null : storableText(input.error),
    // Who was online is never history: the names stay on the latest result alone (README.md, "Who is online").
    data: input.data ? withoutPlayerNames(input.data) : null,
    source: input.source,
    resultId: input.resultId ?? null,
  };
  const step = monitor.vantage ? locatedStep(monitor, monitor.vantage, input, row) : undefined;
  // A late result (older than the latest, of its location) goes into history but does not move the current state.
  if (step !== undefined ? step !== null : monitor.lastCheckAt === null || checkedAt >= monitor.lastCheckAt) {
    const transition =
      step?.transition ??
      nextMonitorState(monitor, {
        ok: input.ok,
        latencyMs: row.latencyMs,
        degraded: input.degraded ?? false,
        source: input.source,
      });
    row.degraded = transition.state === 'degraded';
    if (step) {
      // The monitor's rollups count the state its locations decided; the location's own bucket counts its result.
      row.countedUp = transition.state !== 'down';
      monitor.locationResults = step.locationResults;
    }
    if (transition.state !== monitor.state) {
      events.push(stateEvent(monitor, checkedAt, transition.state, transition.reason));
      const message = step
        ? locatedMessage(transition.state, transition.reason, row)
        : changeMessage(transition.state, transition.reason, row, input.degraded ?? false);
      changes.push(stateChange(monitor, checkedAt, transition.state, message));
      monitor.state = transition.state;
      monitor.stateSince = checkedAt;
    }
    monitor.failureStreak = transition.failureStreak;
    monitor.lastCheckAt = Math.max(checkedAt, monitor.lastCheckAt ?? checkedAt);
    const latest: LatestResult = {
      checkedAt,
      ok: row.ok,
      latencyMs: row.latencyMs,
      message: row.message,
      error: row.error,
      data: latestData(row.data, input.data),
      source: row.source,
    };
    monitor.lastResult = JSON.stringify(latest);
    applyPlayerAlerts(monitor, { at: checkedAt, ok: input.ok, data: row.data }, players, usual.get(monitor.id) ?? null);
    touched.add(monitor);
  } else {
    row.degraded = input.ok && (input.degraded ?? false);
    if (step === null) row.countedUp = monitor.state !== 'down';
  }
  rows.push(row);
  events.push({
    type: 'monitor.checked',
    at: checkedAt,
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    ok: input.ok,
  });
  return { stored: true, monitorId: monitor.id, state: monitor.state, checkedAt };
}

/** The data of the latest result: the stored check's, with the names of who is online (cleaned) when it had them. */
function latestData(stored: CheckRow['data'], given: IngestInput['data']): CheckRow['data'] {
  const names = playerNamesOf(given);
  return names === null || stored === null ? stored : { ...stored, [PLAYER_NAMES_KEY]: names };
}

/** A result that arrived meanwhile (a newer last check) wins over the silence the watchdog saw. */
function applySilence(
  monitor: MonitorStateRow,
  input: IngestSilence,
  now: number,
  events: WardenEvent[],
  touched: Set<MonitorStateRow>,
  changes: MonitorStateChange[],
): IngestOutcome {
  if (monitor.state === 'unknown' || monitor.lastCheckAt !== input.lastCheckAt)
    return { stored: false, monitorId: monitor.id, reason: 'superseded' };
  events.push(stateEvent(monitor, now, 'unknown', input.reason));
  changes.push(stateChange(monitor, now, 'unknown', input.reason));
  monitor.state = 'unknown';
  monitor.stateSince = now;
  monitor.failureStreak = 0;
  touched.add(monitor);
  return { stored: true, monitorId: monitor.id, state: 'unknown', checkedAt: now };
}

/** The commit's state changes as the outbox needs them; `previousSince` rides on the event (see stateEvent). */
function stateChanges(events: readonly WardenEvent[], monitors: Map<string, MonitorStateRow>): StateChange[] {
  const changes: StateChange[] = [];
  for (const event of events) {
    if (event.type !== 'monitor.state') continue;
    const since = PREVIOUS_SINCE.get(event);
    changes.push({
      monitorId: event.monitorId,
      organizationId: event.organizationId,
      previous: event.previous,
      previousSince: since ?? event.at,
      state: event.state,
      at: event.at,
      reason: event.reason,
      lastResult: monitors.get(event.monitorId)?.lastResult ?? null,
      locations: monitors.get(event.monitorId)?.vantage ? event.reason : undefined,
    });
  }
  return changes;
}

function stateChange(
  monitor: MonitorStateRow,
  at: number,
  to: MonitorStateRow['state'],
  message: string | null,
): MonitorStateChange {
  return { id: newId('stc'), monitorId: monitor.id, at, from: monitor.state, to, message };
}

/** A multi-location monitor's step, with its check marked with its location; null: late for its location. */
function locatedStep(monitor: MonitorStateRow, vantage: MonitorVantage, input: IngestInput, row: CheckRow) {
  const location = locationOf(input);
  if (location === null) return undefined;
  row.location = location;
  return locationStep(monitor, vantage, location, {
    ...input,
    latencyMs: row.latencyMs,
    error: row.error,
    message: row.message,
    degraded: input.degraded ?? false,
    checkedAt: row.checkedAt,
  });
}

/**
 * Why, as a multi-location monitor's state history tells it: which locations see it down (or slow), with the error
 * of the check that tipped it; back up, those still seeing it down, if any.
 */
function locatedMessage(to: MonitorStateRow['state'], reason: string | null, check: CheckRow): string | null {
  const error = check.ok ? null : (check.error ?? check.message);
  if (to === 'up' || reason === null) return reason ?? check.message;
  return error === null ? reason : `${reason}: ${error}`;
}

/** Why, as the state history tells it: the failing check's error, the passing check's message, the latency rule. */
function changeMessage(
  to: MonitorStateRow['state'],
  reason: string | null,
  check: CheckRow,
  probeDegraded: boolean,
): string | null {
  if (to === 'down') return check.error ?? check.message ?? reason;
  if (to === 'up') return check.message;
  // Degraded by the probe's own finding (its message says what), or by the latency rule: with the latency that broke it.
  if (probeDegraded) return check.message ?? reason;
  return `${reason ?? 'slow'} (${check.latencyMs} ms)`;
}

/** Since when the state a monitor.state event leaves had held, kept beside the event (not published). */
const PREVIOUS_SINCE = new WeakMap<WardenEvent, number>();

function stateEvent(
  monitor: MonitorStateRow,
  at: number,
  state: MonitorStateRow['state'],
  reason: string | null,
): WardenEvent {
  const event: WardenEvent = {
    type: 'monitor.state',
    at,
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    previous: monitor.state,
    state,
    reason,
  };
  PREVIOUS_SINCE.set(event, monitor.stateSince);
  return event;
}
