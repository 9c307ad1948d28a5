// How an event maps onto an incident tool's alert (PagerDuty, Opsgenie): open or close, under a key that is the same for
// the event that opens an alert and the one that closes it. Event ids differ between a down and its recovery, so the key
// names what is wrong instead: the monitor, the relay, the incident, the certificate's host, the maintenance window.
// A later outage of the same monitor reuses its key: both tools open a new alert once the previous one is closed.
import { clip, eventFacts, REASON_CHARS } from '../events/format.js';
import type { NotificationEvent } from './channel.js';

export interface AlertPairing {
  /** `open` creates (or adds to) the alert under `key`; `close` resolves it. */
  action: 'open' | 'close';
  /** Stable per thing that is wrong: `warden:<organization>:monitor:<monitor id>`, at most 255 characters. */
  key: string;
  /** Information nobody needs to act on (maintenance windows): PagerDuty sends it as a change event. */
  notice: boolean;
}

/** PagerDuty's dedup_key takes up to 255 characters (Opsgenie's alias 512). */
const KEY_CHARS = 255;

export function alertPairing(event: NotificationEvent): AlertPairing {
  const [subject, action] = subjectOf(event);
  const key = `warden:${event.organization.key}:${subject}`.slice(0, KEY_CHARS);
  return { action, key, notice: NOTICE_KINDS.has(event.kind) };
}

/** Kinds nobody needs to act on: maintenance windows and a game's version or map changing. */
const NOTICE_KINDS = new Set<string>(['maintenance.started', 'maintenance.ended', 'game.changed']);

function subjectOf(event: NotificationEvent): [string, AlertPairing['action']] {
  const { monitor, relay, incident, maintenance, tls, playerRule } = event;
  switch (event.kind) {
    case 'monitor.down':
    case 'monitor.degraded':
    case 'monitor.reminder':
      return monitor ? [`monitor:${monitor.id}`, 'open'] : [`event:${event.id}`, 'open'];
    case 'monitor.recovered':
      return monitor ? [`monitor:${monitor.id}`, 'close'] : [`event:${event.id}`, 'close'];
    // A flap's summary tells the state it settled in: up closes the monitor's alert, anything else keeps it open.
    case 'monitor.flapping':
      return monitor
        ? [`monitor:${monitor.id}`, monitor.state === 'up' ? 'close' : 'open']
        : [`event:${event.id}`, 'open'];
    // A player alert and its clearing pair up per monitor and rule (full, queue, band).
    case 'players.alert':
    case 'players.ok':
      return [
        `players:${monitor?.id ?? event.id}:${playerRule?.rule ?? ''}`,
        event.kind === 'players.ok' ? 'close' : 'open',
      ];
    case 'game.changed':
      return [`game:${event.id}`, 'open'];
    case 'relay.offline':
    case 'relay.back':
      return [`relay:${relay?.key ?? event.id}`, event.kind === 'relay.back' ? 'close' : 'open'];
    case 'incident.created':
    case 'incident.updated':
    case 'incident.resolved':
      return [`incident:${incident?.id ?? event.id}`, event.kind === 'incident.resolved' ? 'close' : 'open'];
    case 'maintenance.started':
    case 'maintenance.ended':
      return [`maintenance:${maintenance?.id ?? event.id}`, event.kind === 'maintenance.ended' ? 'close' : 'open'];
    case 'tls.expiring':
    case 'tls.expired':
      return [`tls:${tls?.host ?? event.id}`, 'open'];
    default:
      // `test`: an alert of its own, so a test never closes (or joins) a real one.
      return [`test:${event.id}`, 'open'];
  }
}

/** The event as flat string details for a tool's custom fields: its id and kind, the reason, and the facts. */
export function alertDetails(event: NotificationEvent): Record<string, string> {
  const details: Record<string, string> = { event: event.id, kind: event.kind, organization: event.organization.name };
  if (event.reason) details.reason = clip(event.reason, REASON_CHARS);
  for (const fact of eventFacts(event)) details[fact.name] = fact.url ? `${fact.value} (${fact.url})` : fact.value;
  return details;
}
