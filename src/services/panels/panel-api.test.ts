import { afterEach, describe, expect, it } from 'vitest';
import { type FakePanelServer, startPterodactylPanel } from '../../../test/fakes/pterodactyl-panel.js';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY } from '../../net/target-guard.js';
import { listPanelServers, PANEL_LIMITS } from './panel-api.js';
import { proposalFor } from './proposals.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function panelOf(servers: FakePanelServer[]) {
  const panel = await startPterodactylPanel({ servers });
  closers.push(panel.close);
  return panel;
}

const server = (n: number, over: Partial<FakePanelServer> = {}): FakePanelServer => ({
  identifier: n.toString(16).padStart(8, '0'),
  name: `Server ${n}`,
  egg: 'Generic',
  dockerImage: 'debian',
  allocations: [{ ip: '10.0.0.1', port: 20000 + n, isDefault: true }],
  ...over,
});

describe('the panel client', () => {
  it(`reads at most ${PANEL_LIMITS.servers} servers and says so`, async () => {
    const panel = await panelOf(Array.from({ length: 520 }, (_, n) => server(n)));
    const { servers, truncated } = await listPanelServers(panel.url, panel.key, ANY_TARGET);
    expect(servers).toHaveLength(PANEL_LIMITS.servers);
    expect(truncated).toBe(true);
    expect(panel.requests).toHaveLength(PANEL_LIMITS.servers / PANEL_LIMITS.perPage);
  });

  it('refuses a loopback panel under the public-targets policy, naming panelUrl', async () => {
    const panel = await panelOf([server(1)]);
    await expect(listPanelServers(panel.url, panel.key, PUBLIC_TARGETS_ONLY)).rejects.toMatchObject({
      issues: [{ path: 'panelUrl' }],
    });
    expect(panel.requests).toEqual([]);
  });

  it('proposes from the image or the name when the egg says nothing, and tcp when nothing does', async () => {
    const panel = await panelOf([
      server(1, { dockerImage: 'ghcr.io/pterodactyl/yolks:java_17' }),
      server(2, { name: 'My FiveM city' }),
      server(3, { allocations: [] }),
    ]);
    const { servers } = await listPanelServers(panel.url, panel.key, ANY_TARGET);
    const proposals = servers.map((s) => proposalFor(s, panel.url));
    expect(proposals.map((p) => [p.monitor?.type ?? null, p.guessedFrom])).toEqual([
      ['minecraft-java', 'image'],
      ['fivem', 'name'],
      [null, null],
    ]);
    // A server without an allocation gets a component that follows its resource monitor.
    expect(proposals[2]?.component.monitor).toBe('ptero-00000003-resources');
  });
});
