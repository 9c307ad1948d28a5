// Statuspage's public API v2 from a snapshot: the keys and value types of Statuspage's own answers (the fixtures in
// test/fixtures/statuspage/), and what Warden's states and groups become in its words (incidents and maintenance:
// statuspage-incidents.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  activeIncidentSnapshot,
  component,
  FIXTURE_NOW,
  incident,
  maintenanceSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  SNAPSHOT_FIXTURES,
  snapshotOf,
} from '../../test/fakes/snapshots.js';
import { learnShape, placesOf, shapeDifferences } from '../../test/json-shape.js';
import { type Any, componentNamed, MINUTE, view } from '../../test/statuspage-views.js';
import type { PageState, Snapshot } from '../domain/snapshot.js';
import { STATUSPAGE_PATHS, type StatuspageEndpoint } from './statuspage.js';
import { STATUSPAGE_SCHEMAS } from './statuspage-schema.js';

/** The Statuspage answer each endpoint is shaped like. */
const FIXTURE_OF: Record<StatuspageEndpoint, string> = {
  summary: 'summary.json',
  status: 'status.json',
  components: 'components.json',
  incidents: 'incidents.json',
  unresolved: 'incidents-unresolved.json',
  maintenances: 'scheduled-maintenances.json',
  upcoming: 'scheduled-maintenances.json',
  active: 'scheduled-maintenances.json',
};

const ENDPOINTS = Object.keys(STATUSPAGE_PATHS) as StatuspageEndpoint[];

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../test/fixtures/statuspage/${name}`, import.meta.url), 'utf8'));
}

describe("Statuspage's shapes", () => {
  for (const endpoint of ENDPOINTS)
    it(`answers ${STATUSPAGE_PATHS[endpoint]} with the keys and value types of Statuspage's ${FIXTURE_OF[endpoint]}, for every fixture snapshot`, () => {
      const shape = learnShape(fixture(FIXTURE_OF[endpoint]));
      for (const [name, make] of Object.entries(SNAPSHOT_FIXTURES)) {
        const answer = view(make(), endpoint);
        expect(shapeDifferences(shape, answer), name).toEqual([]);
        // And it is what the OpenAPI document says it is.
        expect(STATUSPAGE_SCHEMAS[endpoint].safeParse(answer).error, name).toBeUndefined();
      }
    });

  it('reaches every nested part of the shapes: groups and their members, incidents with updates and components, maintenance', () => {
    const places = new Set<string>();
    for (const make of Object.values(SNAPSHOT_FIXTURES))
      for (const place of placesOf(view(make(), 'summary'))) places.add(place);
    for (const make of Object.values(SNAPSHOT_FIXTURES))
      for (const place of placesOf(view(make(), 'incidents'))) places.add(place.replace('$.incidents', '$.all'));
    expect([...places]).toEqual(
      expect.arrayContaining([
        '$.components[].components[]',
        '$.components[].group_id',
        '$.incidents[].incident_updates[].body',
        '$.incidents[].components[].status',
        '$.scheduled_maintenances[].incident_updates[].status',
        '$.scheduled_maintenances[].components[].id',
        '$.scheduled_maintenances[].scheduled_until',
        '$.all[].resolved_at',
      ]),
    );
  });

  it('tells a departure from the shape: a missing or extra key, another type, a time without its offset', () => {
    const shape = learnShape(fixture('components.json'));
    const answer = fixture('components.json') as Any;
    expect(shapeDifferences(shape, answer)).toEqual([]);
    delete answer.components[0].showcase;
    answer.components[2].uptime = 0.99;
    answer.components[3].position = '2';
    answer.page.updated_at = '2025-03-14T10:02:11.512';
    expect(shapeDifferences(shape, answer)).toEqual([
      '$.page.updated_at: string where the samples have datetime',
      "$.components[]: keys differ from the samples' (missing showcase; extra none)",
      "$.components[]: keys differ from the samples' (missing none; extra uptime)",
      '$.components[].uptime: the samples have nothing here',
      '$.components[].position: string where the samples have number',
    ]);
  });
});

describe('component statuses', () => {
  const withStates = (states: [string, PageState, ('up' | 'down' | 'degraded' | 'unknown')?][]) =>
    snapshotOf(
      states.map(([name, state, monitorState]) =>
        component({ id: name.toLowerCase(), name, state, ...(monitorState ? { monitorState } : {}) }),
      ),
      {},
    );

  it("maps Warden's states: operational, degraded_performance, major_outage, under_maintenance, and unknown as degraded_performance", () => {
    const snapshot = withStates([
      ['A', 'operational'],
      ['B', 'degraded'],
      ['C', 'down'],
      ['D', 'maintenance'],
      ['E', 'unknown'],
    ]);
    expect(view(snapshot, 'components').components.map((c: Any) => [c.name, c.status])).toEqual([
      ['A', 'operational'],
      ['B', 'degraded_performance'],
      ['C', 'major_outage'],
      ['D', 'under_maintenance'],
      ['E', 'degraded_performance'],
    ]);
  });

  it('says partial_outage for a component only a major incident puts down, major_outage when the incident is critical or the checks fail', () => {
    const components = [
      component({ id: 'web', name: 'Web', state: 'down', monitorState: 'up' }),
      component({ id: 'db', name: 'Database', state: 'down', monitorState: 'up' }),
      component({ id: 'lobby', name: 'Lobby', state: 'down', monitorState: 'down' }),
    ];
    const snapshot = snapshotOf(components, {
      activeIncidents: [
        incident({
          id: 'i1',
          title: 'Slow web',
          impact: 'major',
          startedAt: FIXTURE_NOW - 5 * MINUTE,
          components: [{ id: 'web', name: 'Web' }],
        }),
        incident({
          id: 'i2',
          title: 'DB gone',
          impact: 'critical',
          startedAt: FIXTURE_NOW - 4 * MINUTE,
          components: [{ id: 'db', name: 'Database' }],
        }),
      ],
    });
    expect(view(snapshot, 'components').components.map((c: Any) => c.status)).toEqual([
      'partial_outage',
      'major_outage',
      'major_outage',
    ]);
  });

  it('shows each group as a component with group: true listing its members, who name it in group_id, positions within each level', () => {
    const { components } = view(operationalSnapshot(), 'components');
    expect(components.map((c: Any) => [c.name, c.group, c.position, c.group_id === null])).toEqual([
      ['Game servers', true, 1, true],
      ['Lobby', false, 1, false],
      ['Survival', false, 2, false],
      ['Creative', false, 3, false],
      ['Bedrock gateway', false, 4, false],
      ['Community', true, 2, true],
      ['Website', false, 1, false],
      ['Discord bot', false, 2, false],
    ]);
    const [games, community] = components.filter((c: Any) => c.group);
    expect(games.components).toEqual(['lobby', 'survival', 'creative', 'bedrock']);
    expect(community.components).toEqual(['website', 'discord']);
    for (const member of components.filter((c: Any) => !c.group))
      expect(member.group_id).toBe(
        member.name === 'Website' || member.name === 'Discord bot' ? community.id : games.id,
      );
    expect(games.id).toMatch(/^grp_[0-9a-f]{12}$/);
    expect(games.id).not.toBe(community.id);
    // The same group keeps its id from one snapshot to the next.
    expect(view(partialOutageSnapshot(), 'components').components[0].id).toBe(games.id);
    expect(components.find((c: Any) => c.name === 'Lobby')).toMatchObject({
      id: 'lobby',
      description: 'play.blockhaven.example',
      showcase: true,
      page_id: 'page_blockhaven',
    });
  });

  it("gives a group its members' worst status, a partial outage when only some are out", () => {
    const group = (states: PageState[]) =>
      view(
        snapshotOf(
          states.map((state, i) => component({ id: `c${i}`, name: `C${i}`, group: 'G', state })),
          {},
        ),
        'components',
      ).components[0].status;
    expect(group(['operational', 'operational'])).toBe('operational');
    expect(group(['operational', 'maintenance'])).toBe('under_maintenance');
    expect(group(['maintenance', 'degraded'])).toBe('degraded_performance');
    expect(group(['operational', 'down'])).toBe('partial_outage');
    expect(group(['down', 'down'])).toBe('major_outage');
  });

  it('dates a component from its first day with checks and its last change', () => {
    const survival = componentNamed(partialOutageSnapshot(), 'Survival');
    expect(survival.start_date).toBe('2026-08-23');
    expect(survival.created_at).toBe('2026-08-23T00:00:00.000Z');
    // Down since 23 minutes before the fixture's now.
    expect(survival.updated_at).toBe(new Date(FIXTURE_NOW - 23 * MINUTE).toISOString());
  });
});

describe('the status indicator', () => {
  const status = (snapshot: Snapshot) => view(snapshot, 'status').status;
  it('follows the overall state, its description the overall label', () => {
    expect(status(operationalSnapshot())).toEqual({ indicator: 'none', description: 'All systems operational' });
    expect(status(activeIncidentSnapshot())).toEqual({ indicator: 'minor', description: 'Degraded performance' });
    expect(status(partialOutageSnapshot())).toEqual({
      indicator: 'major',
      description: 'Partial outage: 1 of 6 components down',
    });
    expect(status(maintenanceSnapshot())).toEqual({
      indicator: 'maintenance',
      description: 'Scheduled maintenance in progress',
    });
    const allDown = snapshotOf([component({ id: 'a', name: 'A', state: 'down' })], {});
    expect(status(allDown)).toEqual({ indicator: 'critical', description: 'Major outage' });
    const unknown = snapshotOf([component({ id: 'a', name: 'A', state: 'unknown' })], {});
    expect(status(unknown)).toEqual({ indicator: 'minor', description: 'Status unknown' });
    const majorIncident = snapshotOf(operationalSnapshot().components, {
      activeIncidents: [incident({ id: 'i', title: 'Logins slow', impact: 'major', startedAt: FIXTURE_NOW - MINUTE })],
    });
    majorIncident.overall = { state: 'degraded', label: 'Partial outage' };
    expect(status(majorIncident)).toEqual({ indicator: 'major', description: 'Partial outage' });
  });

  it('answers the same page and status in summary.json and status.json', () => {
    const snapshot = activeIncidentSnapshot();
    const summary = view(snapshot, 'summary');
    expect(view(snapshot, 'status')).toEqual({ page: summary.page, status: summary.status });
    expect(summary.page).toEqual({
      id: 'page_blockhaven',
      name: 'Blockhaven Network',
      url: 'https://status.blockhaven.example/',
      time_zone: 'UTC',
      // The last change the snapshot knows of: the lag incident's latest update.
      updated_at: new Date(FIXTURE_NOW - 5 * MINUTE).toISOString(),
    });
  });
});
