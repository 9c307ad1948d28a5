// Ingest's arithmetic: a batch's results and silences applied to their monitors' states (the rows are changed in
// place), giving the outcomes, the checks to store, the state changes and the events to publish. No I/O.

import type { WardenEvent } from '../bus/events.js';
import type { CheckRow } from '../domain/check.js';
import { newId } from '../domain/ids.js';
import type { LatestResult, MonitorStateChange, MonitorStateRow, MonitorVantage } from '../domain/monitor.js';
import { PLAYER_NAMES_KEY, playerNamesOf, withoutPlayerNames } from '../domain/player-names.js';
import { nextMonitorState } from '../domain/states.js';
import { storableText } from '../domain/storable-text.js';
import type { StateChange } from '../notify/events/monitors.js';
import type { IngestInput, IngestOutcome, IngestSilence } from './ingest.js';
import { locationOf, locationStep } from './ingest-locations.js';
import { applyPlayerAlerts, type PlayerFacts } from './ingest-players.js';

/** A batch applied: each input's outcome, and what they add up to. */
export interface AppliedBatch extends BatchOutput {
  outcomes: IngestOutcome[];
}

/**
 * Applies the inputs in order to `monitors` (changed in place). `seen`: the keys (`monitorId\u0000resultId`) of relay
 * results already stored, added to as results are taken; `usual`: the usual players of the monitors that may begin an
 * empty spell.
 */
export function applyBatch(
  monitors: ReadonlyMap<string, MonitorStateRow>,
  inputs: readonly (IngestInput | IngestSilence)[],
  now: number,
  seen: Set<string>,
  usual: ReadonlyMap<string, number>,
): AppliedBatch {
  const out: AppliedBatch = {
    outcomes: [],
    events: [],
    rows: [],
    touched: new Set(),
    changes: [],
    players: new Map(),
    usual,
  };
  for (const input of inputs) {
    const monitor = monitors.get(input.monitorId);
    if (!monitor) out.outcomes.push({ stored: false, monitorId: input.monitorId, reason: 'unknown monitor' });
    else if (input.kind === 'silence')
      out.outcomes.push(applySilence(monitor, input, now, out.events, out.touched, out.changes));
    else out.outcomes.push(applyResult(monitor, input, now, seen, out));
  }
  return out;
}

/** What a batch's results add up to: events to publish, checks to store, monitors whose state moved and the changes. */
export interface BatchOutput {
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
export function stateChanges(events: readonly WardenEvent[], monitors: Map<string, MonitorStateRow>): StateChange[] {
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
