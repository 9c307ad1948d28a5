// One made-up event of every kind, as Warden's builders shape them: what the dashboard previews a template with.
import { NOTIFICATION_KINDS, type NotificationEvent, type NotificationKind } from '../channels/channel.js';

const AT = Date.UTC(2025, 2, 1, 14, 5);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const BASE = {
  at: AT,
  organization: { key: 'acme', name: 'Acme' },
  pages: [{ slug: 'status', title: 'Acme status', url: 'https://status.example.com/s/status' }],
  dashboardUrl: 'https://status.example.com/app',
};

const LOBBY = { id: 'mon_sample', key: 'lobby', name: 'Lobby', type: 'minecraft' };
const PLAYERS = { online: 12, max: 64 };

type Sample = Omit<NotificationEvent, 'id' | 'kind' | keyof typeof BASE> & Partial<Pick<NotificationEvent, 'pages'>>;

const SAMPLES: Record<NotificationKind, Sample> = {
  'monitor.down': {
    severity: 'critical',
    title: 'Lobby is down',
    reason: 'connect ECONNREFUSED 203.0.113.7:25565',
    monitor: { ...LOBBY, state: 'down', previousState: 'up', downtimeMs: null, players: null },
  },
  'monitor.recovered': {
    severity: 'ok',
    title: 'Lobby is back up after 4 min 12 s',
    reason: null,
    monitor: { ...LOBBY, state: 'up', previousState: 'down', downtimeMs: 252_000, players: PLAYERS },
  },
  'monitor.degraded': {
    severity: 'warning',
    title: 'Lobby is degraded',
    reason: 'answered in 2.4 s, slower than 1 s',
    monitor: { ...LOBBY, state: 'degraded', previousState: 'up', downtimeMs: null, players: PLAYERS },
  },
  'monitor.flapping': {
    severity: 'warning',
    title: 'Lobby is flapping',
    reason: '6 state changes in 10 min',
    monitor: { ...LOBBY, state: 'down', previousState: 'up', downtimeMs: null, players: null },
    flap: { changes: 6, sinceAt: AT - 600_000, ended: false },
  },
  'monitor.reminder': {
    severity: 'critical',
    title: 'Lobby is still down (for 2 h)',
    reason: 'connect ECONNREFUSED 203.0.113.7:25565',
    monitor: { ...LOBBY, state: 'down', previousState: 'down', downtimeMs: null, players: null },
    downSince: AT - 2 * HOUR,
  },
  'players.alert': {
    severity: 'warning',
    title: 'Lobby is full (64/64) for 10 min',
    reason: 'Full since 13:55 UTC.',
    monitor: { ...LOBBY, state: 'up', previousState: 'up', downtimeMs: null, players: { online: 64, max: 64 } },
    playerRule: { rule: 'full', since: AT - 600_000 },
  },
  'players.ok': {
    severity: 'ok',
    title: 'Lobby is no longer full (60/64)',
    reason: null,
    monitor: { ...LOBBY, state: 'up', previousState: 'up', downtimeMs: null, players: { online: 60, max: 64 } },
    playerRule: { rule: 'full', since: AT - 1_800_000 },
  },
  'game.changed': {
    severity: 'info',
    title: 'Lobby: map changed to de_dust2',
    reason: 'Was de_inferno.',
    monitor: { ...LOBBY, state: 'up', previousState: 'up', downtimeMs: null, players: PLAYERS },
    gameChange: { field: 'map', from: 'de_inferno', to: 'de_dust2' },
  },
  'relay.offline': {
    severity: 'warning',
    title: 'Relay Frankfurt stopped reporting',
    reason: 'No report for 3 min; its monitors are not checked.',
    relay: { key: 'fra', name: 'Frankfurt' },
  },
  'relay.back': {
    severity: 'ok',
    title: 'Relay Frankfurt reports again',
    reason: null,
    relay: { key: 'fra', name: 'Frankfurt' },
  },
  'incident.created': {
    severity: 'critical',
    title: 'Incident: Login fails for some players',
    reason: 'We are looking into it.',
    incident: incident('investigating', 'We are looking into it.'),
  },
  'incident.updated': {
    severity: 'warning',
    title: 'Incident updated: Login fails for some players',
    reason: 'The cause is a full disk on the auth server.',
    incident: incident('identified', 'The cause is a full disk on the auth server.'),
  },
  'incident.resolved': {
    severity: 'ok',
    title: 'Incident resolved: Login fails for some players',
    reason: 'Login works again for everyone.',
    incident: incident('resolved', 'Login works again for everyone.'),
  },
  'maintenance.started': {
    severity: 'info',
    title: 'Maintenance started: Database upgrade',
    reason: null,
    maintenance: { id: 'mnt_sample', title: 'Database upgrade', startsAt: AT, endsAt: AT + HOUR },
  },
  'maintenance.ended': {
    severity: 'ok',
    title: 'Maintenance ended: Database upgrade',
    reason: null,
    maintenance: { id: 'mnt_sample', title: 'Database upgrade', startsAt: AT - HOUR, endsAt: AT },
  },
  'tls.expiring': {
    severity: 'warning',
    title: 'The certificate of shop.example.com expires in 9 days',
    reason: null,
    monitor: { id: 'mon_shop', key: 'shop', name: 'Shop', type: 'http', state: 'up', previousState: 'up' },
    tls: { host: 'shop.example.com', expiresAt: AT + 9 * DAY, daysLeft: 9 },
  },
  'tls.expired': {
    severity: 'critical',
    title: 'The certificate of shop.example.com has expired',
    reason: null,
    monitor: { id: 'mon_shop', key: 'shop', name: 'Shop', type: 'http', state: 'down', previousState: 'up' },
    tls: { host: 'shop.example.com', expiresAt: AT - DAY, daysLeft: -1 },
  },
  test: {
    severity: 'info',
    title: 'Test notification for "Ops chat"',
    reason: 'Sent from Warden to check that this channel reaches you. Nothing is down.',
    pages: [],
  },
};

function incident(status: string, message: string) {
  return { id: 'inc_sample', title: 'Login fails for some players', status, impact: 'major', message };
}

/** A sample event of every kind, in NOTIFICATION_KINDS order. */
export function sampleEvents(): NotificationEvent[] {
  return NOTIFICATION_KINDS.map((kind) => ({ ...BASE, id: `evt_sample_${kind}`, kind, ...SAMPLES[kind] }));
}
