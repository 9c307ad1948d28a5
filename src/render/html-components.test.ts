// The components section reads true: a state set by an incident beside the check's own result, history that does not
// contradict it, a heading that follows the strip's width, and each day's details in its bar.
import { describe, expect, it } from 'vitest';
import { withDayIncidents } from '../../test/fakes/snapshot-charts.js';
import {
  activeIncidentSnapshot,
  component,
  FIXTURE_NOW,
  incident,
  maintenanceWindow,
  operationalSnapshot,
  snapshotOf,
} from '../../test/fakes/snapshots.js';
import type { Snapshot, SnapshotComponent } from '../domain/snapshot.js';
import { type HtmlPageOptions, renderHtmlPage } from './html-page.js';

const OPTIONS: HtmlPageOptions = { jsonPath: '/status.json', markdownPath: '/status.md', refreshSeconds: 30 };
const MINUTE = 60_000;

function componentMarkup(html: string, id: string): string {
  const start = html.lastIndexOf('<li', html.indexOf(`data-component-id="${id}"`));
  const next = html.indexOf('<li class="component"', start + 1);
  return html.slice(start, next === -1 ? undefined : next);
}

/** The TCP port monitor of "Game" passes; a major incident on it says the game is down. */
function incidentOver(game: Partial<SnapshotComponent>): Snapshot {
  const monitored = component({
    id: 'game',
    name: 'Game',
    state: 'down',
    monitorState: 'up',
    since: FIXTURE_NOW - 3 * 24 * 60 * MINUTE,
    live: {
      checkedAt: FIXTURE_NOW - 10_000,
      latencyMs: 1,
      players: null,
      maxPlayers: null,
      version: null,
      motd: null,
      message: 'port 18200 open in 1 ms',
    },
    ...game,
  });
  const outage = incident({
    id: 'inc_login',
    title: 'Logins fail',
    impact: 'major',
    startedAt: FIXTURE_NOW - 20 * MINUTE,
    components: [{ id: 'game', name: 'Game' }],
  });
  return snapshotOf([monitored, component({ id: 'forum', name: 'Forum' })], { activeIncidents: [outage] });
}

describe('a component whose state an incident sets', () => {
  it('shows the incident’s state, since the incident began, beside the check passing', () => {
    const game = componentMarkup(renderHtmlPage(incidentOver({}), OPTIONS).body, 'game');
    expect(game).toContain('</svg>Down</span>');
    expect(game).toContain(
      '<p class="check-note" data-testid="check-note">Check passing · affected by incident “Logins fail”</p>',
    );
    // The check's own text no longer stands beside "Down" as if it explained it.
    expect(game).not.toContain('port 18200 open');
    expect(game).toContain('since <time datetime="2026-11-20T13:45:00Z"');
  });

  it('gives the check’s error when the check fails too', () => {
    const failing = incidentOver({
      monitorState: 'down',
      live: {
        checkedAt: FIXTURE_NOW,
        latencyMs: null,
        players: null,
        maxPlayers: null,
        version: null,
        motd: null,
        message: 'connection refused',
      },
    });
    const game = componentMarkup(renderHtmlPage(failing, OPTIONS).body, 'game');
    expect(game).toContain('>Check failing: connection refused · affected by incident “Logins fail”</p>');
    expect(game).not.toContain('<p class="motd">connection refused</p>');
    // The monitor has been down for days: "since" stays its own when the incident only agrees with it.
    expect(game).toContain('since <time datetime="2026-11-17T14:05:00Z"');
    const unknown = incidentOver({ monitorState: 'unknown', live: null });
    expect(componentMarkup(renderHtmlPage(unknown, OPTIONS).body, 'game')).toContain(
      '>No recent check · affected by incident “Logins fail”</p>',
    );
  });

  it('counts several incidents, and names maintenance as the reason under maintenance', () => {
    const two = incidentOver({});
    two.activeIncidents.push(
      incident({
        id: 'inc_2',
        title: 'Chat lag',
        impact: 'critical',
        startedAt: FIXTURE_NOW - 5 * MINUTE,
        components: [{ id: 'game', name: 'Game' }],
      }),
    );
    expect(componentMarkup(renderHtmlPage(two, OPTIONS).body, 'game')).toContain(
      '>Check passing · affected by 2 incidents</p>',
    );

    const window = maintenanceWindow({
      id: 'm',
      title: 'Restart',
      startsAt: FIXTURE_NOW - 7 * MINUTE,
      endsAt: FIXTURE_NOW + MINUTE,
      status: 'in_progress',
      components: [{ id: 'game', name: 'Game' }],
    });
    const maintained = snapshotOf(
      [
        component({
          id: 'game',
          name: 'Game',
          state: 'maintenance',
          monitorState: 'up',
          since: FIXTURE_NOW - 99 * MINUTE,
        }),
      ],
      {
        maintenance: { active: [window], upcoming: [] },
      },
    );
    const game = componentMarkup(renderHtmlPage(maintained, OPTIONS).body, 'game');
    expect(game).toContain('>Check passing · under maintenance</p>');
    expect(game).toContain('since <time datetime="2026-11-20T13:58:00Z"');
  });

  it('notes a degraded check under a minor incident, and nothing on components no incident names or without a monitor', () => {
    const body = renderHtmlPage(activeIncidentSnapshot(), OPTIONS).body;
    expect(componentMarkup(body, 'survival')).toContain(
      '>Check passing, but degraded · affected by incident “Lag spikes on Survival”</p>',
    );
    expect(body.match(/data-testid="check-note"/g)).toHaveLength(1);
    const unmonitored = incidentOver({ monitorState: null, live: null });
    const game = componentMarkup(renderHtmlPage(unmonitored, OPTIONS).body, 'game');
    expect(game).not.toContain('check-note');
    expect(game).toContain('since <time datetime="2026-11-20T13:45:00Z"');
  });
});

describe('the history under the components', () => {
  it('says "no resolved incidents" under an active one, and "no incidents" on a calm page', () => {
    const active = renderHtmlPage(incidentOver({}), OPTIONS).body;
    expect(active).toContain('<h2 id="active-incidents-title">');
    expect(active).toContain('<p class="empty">No resolved incidents in the last 14 days.</p>');
    expect(active).not.toContain('No incidents in the last 14 days.');
    expect(renderHtmlPage(operationalSnapshot(), OPTIONS).body).toContain(
      '<p class="empty">No incidents in the last 14 days.</p>',
    );
  });
});

describe('the uptime strip', () => {
  it('says 90 days, or 30 where the stylesheet shows 30 bars', () => {
    const body = renderHtmlPage(operationalSnapshot(), OPTIONS).body;
    expect(body).toContain(
      '<p><span class="days-90">Uptime over the past 90 days</span><span class="days-30">Uptime over the past 30 days</span></p>',
    );
    const phone = /@media \(max-width:600px\)\{(.*?)\}\}/.exec(body)?.[1] ?? '';
    expect(phone).toContain('.strip span:nth-last-child(n+31){display:none}');
    expect(phone).toContain('.days-90{display:none}.days-30{display:inline}');
  });

  it('puts each day’s uptime, minutes down and incidents in its bar’s title, one per line', () => {
    const survival = activeIncidentSnapshot().components.find((c) => c.id === 'survival')!;
    const days = withDayIncidents(survival.days, [{ daysAgo: 1, id: 'x', title: 'Restart <loop>' }]).map(
      (day, i, all) => (i === all.length - 2 ? { ...day, uptime: 0.9, state: 'down' as const, downMinutes: 144 } : day),
    );
    const snapshot = snapshotOf([{ ...survival, days }], {});
    const markup = componentMarkup(renderHtmlPage(snapshot, OPTIONS).body, 'survival');
    expect(markup).toContain(
      '<span class="d" title="19 Nov 2026: 90.00% uptime, outage\n2 h 24 min down\nIncident: Restart &lt;loop&gt;"></span>',
    );
    expect(markup).toContain('title="20 Nov 2026: 100.00% uptime\nIncident: Lag spikes on Survival"></span></div>');
    // A day without trouble stays one line.
    expect(markup).toMatch(/title="18 Nov 2026: [\d.]+% uptime(, degraded)?(\n\d+ min down)?"/);
  });
});
