// The event kinds a channel's rules choose from, as a form names them: a label and a line of help each, in the order
// of NOTIFICATION_KINDS (docs/notifications.md, "Events", says the same at length).
import { RULE_KINDS, type RuleKind } from './schema.js';

export interface EventChoice {
  kind: RuleKind;
  label: string;
  description: string;
}

const CHOICES: Record<RuleKind, Omit<EventChoice, 'kind'>> = {
  'monitor.down': { label: 'Monitor goes down', description: 'After its retries, with the check’s error.' },
  'monitor.recovered': { label: 'Monitor recovers', description: 'Back up after being down, with how long it was.' },
  'monitor.degraded': {
    label: 'Monitor degrades',
    description: 'Slower than its degraded latency, or degraded by its check.',
  },
  'monitor.flapping': {
    label: 'Monitor flaps',
    description: 'One message instead of each change; always sent when flap damping is on.',
  },
  'monitor.reminder': {
    label: 'Monitor still down (reminder)',
    description: 'Repeated while it stays down; always sent when reminders are set.',
  },
  'players.alert': {
    label: 'Player alert',
    description: 'A game server full, queued or outside its player band for the monitor’s set time.',
  },
  'players.ok': { label: 'Player alert clears', description: 'The condition of a player alert no longer holds.' },
  'game.changed': {
    label: 'Game changes',
    description: 'A game server’s version or map changed (as the monitor lists).',
  },
  'relay.offline': { label: 'Relay goes silent', description: 'A relay stopped reporting; its monitors go unchecked.' },
  'relay.back': { label: 'Relay is back', description: 'A silent relay reports again.' },
  'incident.created': { label: 'Incident opened', description: 'From the dashboard, the API, the CLI or warden.yaml.' },
  'incident.updated': { label: 'Incident updated', description: 'A new timeline entry or status.' },
  'incident.resolved': { label: 'Incident resolved', description: 'Its status became resolved.' },
  'maintenance.started': { label: 'Maintenance starts', description: 'A maintenance window’s start came.' },
  'maintenance.ended': { label: 'Maintenance ends', description: 'A maintenance window’s end came.' },
  'tls.expiring': {
    label: 'Certificate expiring',
    description: 'An HTTP or TLS monitor’s certificate is within the warning days of its expiry.',
  },
  'tls.expired': { label: 'Certificate expired', description: 'An HTTP or TLS monitor’s certificate has expired.' },
};

export const EVENT_CHOICES: readonly EventChoice[] = RULE_KINDS.map((kind) => ({ kind, ...CHOICES[kind] }));
