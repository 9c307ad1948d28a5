// Planning warden.yaml against what an organization holds: which steps, create or update by key, and in which order.
import { describe, expect, it } from 'vitest';
import type { Held, Inventory, PageHoldings } from '../services/organizations/inventory.js';
import { parseConfigText } from './load.js';
import { type PlanStep, planConfig } from './plan.js';

const FILE = parseConfigText(
  `
organization: { key: acme, name: Acme }
relays:
  - { key: lab, name: Lab }
monitors:
  - { key: lobby, name: Lobby, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.5, port: 25565 } }
  - { key: web, name: Web, type: http, config: { url: "https://example.com" } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: Lobby, monitor: lobby }, { key: site, name: Website, monitor: web }]
    incidents: [{ key: lag, title: Lag, startedAt: "2026-11-01T18:00:00Z", components: [Lobby] }]
    maintenance: [{ key: switch, title: Switches, startsAt: "2027-01-10T02:00:00Z", endsAt: "2027-01-10T04:00:00Z" }]
    boards: [{ key: status, webhookUrl: "https://discord.com/api/webhooks/1/abcdefghijkl", components: [Lobby] }]
`,
  'plan.yaml',
  {},
);

const EMPTY: Inventory = { relays: [], monitors: [], pages: [], notifications: [], escalationPolicies: [] };
const config = (key: string): Held => ({ id: `id_${key}`, key, managedBy: 'config' });
const api = (key: string): Held => ({ id: `id_${key}`, key, managedBy: 'api' });
const page = (
  slug: string,
  holdings: Partial<Omit<PageHoldings, keyof Held>> = {},
  managedBy: Held['managedBy'] = 'config',
): PageHoldings => ({
  id: `id_${slug}`,
  key: slug,
  managedBy,
  components: [],
  incidents: [],
  maintenance: [],
  boards: [],
  ...holdings,
});

/** "create relay lab", "delete monitor old", … */
const summary = (steps: PlanStep[]) => steps.map((s) => `${s.action} ${s.label}`);

describe('planning warden.yaml', () => {
  it('creates everything on an empty organization: relays, monitors, then each page before what is on it', () => {
    expect(summary(planConfig(FILE, EMPTY))).toEqual([
      'create relay lab',
      'create monitor lobby',
      'create monitor web',
      'create page acme',
      'create component acme/Lobby',
      'create component acme/site',
      'create incident acme/lag',
      'create maintenance acme/switch',
      'create board acme/status',
    ]);
  });

  it('puts escalation policies after the channels their steps name, and deletes stale ones before', () => {
    const file = parseConfigText(
      `
organization: { key: acme, name: Acme }
notifications:
  - { key: chat, name: Chat, type: ntfy, config: { url: "https://ntfy.sh/acme" } }
escalationPolicies:
  - { key: oncall, name: On call, steps: [{ afterMin: 0, channels: [chat] }] }
`,
      'plan.yaml',
      {},
    );
    const held = { ...EMPTY, escalationPolicies: [config('night'), api('mine')] };
    expect(summary(planConfig(file, held))).toEqual([
      'create notification chat',
      'delete escalation policy night',
      'create escalation policy oncall',
    ]);
  });

  it('names where the file declares each object, and hands its entry to the verb', () => {
    const steps = planConfig(FILE, EMPTY);
    const paths = steps.map((s) => (s.action === 'delete' ? null : s.path));
    expect(paths).toEqual([
      'relays[0]',
      'monitors[0]',
      'monitors[1]',
      'pages[0]',
      'pages[0].components[0]',
      'pages[0].components[1]',
      'pages[0].incidents[0]',
      'pages[0].maintenance[0]',
      'pages[0].boards[0]',
    ]);
    const [, , , pageStep, lobby, site, incident] = steps;
    expect(pageStep).toMatchObject({ kind: 'page', entry: { slug: 'acme', title: 'Acme' } });
    expect(pageStep).not.toHaveProperty('entry.components');
    expect(lobby).toMatchObject({ entry: { slug: 'acme', name: 'Lobby', order: 0 } });
    expect(site).toMatchObject({ entry: { slug: 'acme', key: 'site', order: 1 } });
    expect(incident).toMatchObject({ entry: { slug: 'acme', key: 'lag' } });
    expect(steps.at(-1)).toMatchObject({
      kind: 'board',
      entry: { slug: 'acme', key: 'status', components: ['Lobby'] },
    });
  });

  it('updates, by key, what the organization already holds', () => {
    const held: Inventory = {
      relays: [config('lab')],
      monitors: [config('lobby'), api('web')],
      pages: [page('acme', { components: [config('Lobby')], incidents: [config('lag')], boards: [config('status')] })],
      notifications: [],
      escalationPolicies: [],
    };
    expect(summary(planConfig(FILE, held))).toEqual([
      'update relay lab',
      'update monitor lobby',
      'update monitor web',
      'update page acme',
      'update component acme/Lobby',
      'create component acme/site',
      'update incident acme/lag',
      'create maintenance acme/switch',
      'update board acme/status',
    ]);
  });

  it('deletes stale monitors before monitors are put, stale relays after, stale pages before pages are put', () => {
    const held: Inventory = {
      relays: [config('lab'), config('attic')],
      monitors: [config('old'), config('lobby')],
      pages: [page('gone')],
      notifications: [],
      escalationPolicies: [],
    };
    const steps = summary(planConfig(FILE, held));
    expect(steps.slice(0, 6)).toEqual([
      'update relay lab',
      'delete monitor old',
      'update monitor lobby',
      'create monitor web',
      'delete relay attic',
      'delete page gone',
    ]);
    expect(steps[6]).toBe('create page acme');
  });

  it('deletes what the file no longer lists on a page before putting what it does', () => {
    const held: Inventory = {
      ...EMPTY,
      pages: [
        page('acme', {
          components: [config('Forum'), config('Lobby')],
          incidents: [config('fire')],
          maintenance: [config('move')],
          boards: [config('old-board')],
        }),
      ],
      notifications: [],
      escalationPolicies: [],
    };
    const steps = planConfig(FILE, held);
    expect(summary(steps).slice(3)).toEqual([
      'update page acme',
      'delete component acme/Forum',
      'update component acme/Lobby',
      'create component acme/site',
      'delete incident acme/fire',
      'create incident acme/lag',
      'delete maintenance acme/move',
      'create maintenance acme/switch',
      'delete board acme/old-board',
      'create board acme/status',
    ]);
    expect(steps.find((s) => s.action === 'delete' && s.kind === 'component')).toMatchObject({
      id: 'id_Forum',
      key: 'Forum',
      page: { id: 'id_acme', slug: 'acme' },
    });
  });

  it('never deletes what the API made, even when the file does not list it', () => {
    const held: Inventory = {
      relays: [api('attic')],
      monitors: [api('manual')],
      pages: [
        page('acme', {
          components: [api('Extra')],
          incidents: [api('outage')],
          maintenance: [api('window')],
          boards: [api('hand-board')],
        }),
        page('hand-made', {}, 'api'),
      ],
      notifications: [],
      escalationPolicies: [],
    };
    expect(planConfig(FILE, held).filter((s) => s.action === 'delete')).toEqual([]);
  });

  it('deletes everything the file managed when it lists nothing any more', () => {
    const bare = parseConfigText('organization: { key: acme, name: Acme }', 'plan.yaml', {});
    const held: Inventory = {
      relays: [config('lab')],
      monitors: [config('lobby')],
      pages: [page('acme', { components: [config('Lobby')] })],
      notifications: [],
      escalationPolicies: [],
    };
    expect(summary(planConfig(bare, held))).toEqual(['delete monitor lobby', 'delete relay lab', 'delete page acme']);
  });
});
