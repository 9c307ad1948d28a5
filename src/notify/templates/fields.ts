// The fields a channel's message template may use (docs/notifications.md, "Message templates"): one plain object per
// event, every value a string, number or boolean, or a section (an object, or the list of pages). Pure.
import type { NotificationEvent, NotificationKind } from '../channels/channel.js';
import { humanDuration, players, utc } from '../events/format.js';

/** What each kind is called in a message: `{{kindLabel}}`. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  'monitor.down': 'Monitor down',
  'monitor.recovered': 'Monitor recovered',
  'monitor.degraded': 'Monitor degraded',
  'monitor.flapping': 'Monitor flapping',
  'monitor.reminder': 'Monitor still down',
  'players.alert': 'Player alert',
  'players.ok': 'Player alert cleared',
  'game.changed': 'Game changed',
  'relay.offline': 'Relay offline',
  'relay.back': 'Relay back',
  'incident.created': 'Incident opened',
  'incident.updated': 'Incident updated',
  'incident.resolved': 'Incident resolved',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'tls.expiring': 'Certificate expiring',
  'tls.expired': 'Certificate expired',
  test: 'Test',
};

/** Every field, with what it holds: the list docs/notifications.md and the dashboard's help show. */
export const TEMPLATE_FIELDS: readonly { name: string; description: string }[] = [
  { name: 'kind', description: 'The event kind: monitor.down, incident.created, test…' },
  { name: 'kindLabel', description: 'The kind in words: "Monitor down".' },
  { name: 'severity', description: 'critical, warning, info or ok.' },
  { name: 'title', description: 'Warden’s own one-line title: "Lobby is down".' },
  { name: 'reason', description: 'The check’s error or the incident’s message (empty when none).' },
  { name: 'id', description: 'The event’s id (stable across retries).' },
  { name: 'state', description: 'The monitor’s state now (up, down, degraded…).' },
  { name: 'previousState', description: 'The monitor’s state before.' },
  { name: 'monitor.name', description: 'The monitor (section: {{#monitor}}…{{/monitor}}); also .key, .type.' },
  { name: 'monitor.key', description: 'The monitor’s key.' },
  { name: 'monitor.type', description: 'The monitor’s type: http, tcp, minecraft…' },
  { name: 'duration', description: 'How long it was down, for monitor.recovered: "4 min 12 s".' },
  { name: 'durationSeconds', description: 'The same in seconds.' },
  { name: 'downSince', description: 'monitor.reminder: since when it has been down (UTC).' },
  { name: 'players', description: 'Game servers: "12 / 64 online", when the last check told.' },
  { name: 'playersOnline', description: 'Players online (a number).' },
  { name: 'playersMax', description: 'The most players (a number, when known).' },
  { name: 'relay.name', description: 'The relay (relay.offline, relay.back); also .key.' },
  { name: 'relay.key', description: 'The relay’s key.' },
  { name: 'incident.title', description: 'The incident (incident.*); also .status, .impact, .message.' },
  { name: 'incident.status', description: 'investigating, identified, monitoring or resolved.' },
  { name: 'incident.impact', description: 'none, minor, major or critical.' },
  { name: 'incident.message', description: 'The incident’s newest update.' },
  { name: 'maintenance.title', description: 'The maintenance window; also .startsAt, .endsAt (UTC).' },
  { name: 'maintenance.startsAt', description: 'When it starts (UTC).' },
  { name: 'maintenance.endsAt', description: 'When it ends (UTC).' },
  { name: 'certificate.host', description: 'tls.*: the certificate’s host; also .expiresAt, .daysLeft.' },
  { name: 'certificate.expiresAt', description: 'When it expires (UTC).' },
  { name: 'certificate.daysLeft', description: 'Days left (a number; negative once expired).' },
  { name: 'flap.changes', description: 'monitor.flapping: state changes counted; also .ended (true on the summary).' },
  { name: 'flap.ended', description: 'True on the summary once the monitor is stable again.' },
  { name: 'page.title', description: 'The first status page showing it; also .url, .slug.' },
  { name: 'page.url', description: 'The page’s public address.' },
  { name: 'page.slug', description: 'The page’s slug.' },
  { name: 'pages', description: 'Every page showing it, a list: {{#pages}}{{title}} {{url}}{{/pages}}.' },
  { name: 'pages.title', description: 'In {{#pages}}: a page’s title; also url, slug.' },
  { name: 'pages.url', description: 'In {{#pages}}: a page’s address.' },
  { name: 'pages.slug', description: 'In {{#pages}}: a page’s slug.' },
  { name: 'links.page', description: 'The first page’s address (empty when no page shows it).' },
  { name: 'links.dashboard', description: 'The dashboard’s address (when the server knows its public URL).' },
  { name: 'links.monitor', description: 'The monitor’s screen in the dashboard (when both are known).' },
  { name: 'time.iso', description: 'When it happened: 2025-03-01T14:05:00.000Z.' },
  { name: 'time.human', description: 'When it happened: 2025-03-01 14:05 UTC.' },
  { name: 'organization.name', description: 'The organization; also .key.' },
  { name: 'organization.key', description: 'The organization’s key.' },
];

/** The names a template may use (sections included: `monitor`, `pages`…). */
export const FIELD_NAMES: ReadonlySet<string> = new Set(
  TEMPLATE_FIELDS.flatMap((field) => {
    const parts = field.name.split('.');
    return parts.map((_, index) => parts.slice(0, index + 1).join('.'));
  }),
);

/** At most this many pages in `pages`. */
const PAGES = 10;

/** The values a template renders with. Sections an event lacks are absent, so `{{#incident}}…{{/incident}}` skips. */
export function templateView(event: NotificationEvent): Record<string, unknown> {
  const { monitor, relay, incident, maintenance, tls, flap } = event;
  const page = event.pages[0];
  const downtime = event.kind === 'monitor.recovered' ? (monitor?.downtimeMs ?? null) : null;
  return {
    kind: event.kind,
    kindLabel: KIND_LABELS[event.kind],
    severity: event.severity,
    title: event.title,
    reason: event.reason ?? '',
    id: event.id,
    state: monitor?.state ?? '',
    previousState: monitor?.previousState ?? '',
    monitor: monitor ? { name: monitor.name, key: monitor.key, type: monitor.type } : undefined,
    duration: downtime === null ? '' : humanDuration(downtime),
    durationSeconds: downtime === null ? '' : Math.round(downtime / 1000),
    downSince: event.downSince === undefined ? '' : utc(event.downSince),
    players: monitor?.players ? players(monitor.players) : '',
    playersOnline: monitor?.players ? monitor.players.online : '',
    playersMax: monitor?.players?.max ?? '',
    relay: relay ? { name: relay.name, key: relay.key } : undefined,
    incident: incident
      ? { title: incident.title, status: incident.status, impact: incident.impact, message: incident.message ?? '' }
      : undefined,
    maintenance: maintenance
      ? { title: maintenance.title, startsAt: utc(maintenance.startsAt), endsAt: utc(maintenance.endsAt) }
      : undefined,
    certificate: tls ? { host: tls.host, expiresAt: utc(tls.expiresAt), daysLeft: tls.daysLeft } : undefined,
    flap: flap ? { changes: flap.changes, ended: flap.ended } : undefined,
    page: page ? { title: page.title, url: page.url, slug: page.slug } : undefined,
    pages: event.pages.slice(0, PAGES).map((p) => ({ title: p.title, url: p.url, slug: p.slug })),
    links: {
      page: page?.url ?? '',
      dashboard: event.dashboardUrl ?? '',
      monitor: event.dashboardUrl && monitor ? `${event.dashboardUrl}/monitors/${monitor.id}` : '',
    },
    time: { iso: new Date(event.at).toISOString(), human: utc(event.at) },
    organization: { name: event.organization.name, key: event.organization.key },
  };
}
