// The join button and badges of each component in a page's snapshot.
import { describe, expect, it } from 'vitest';
import { component, monitor, NOW, parts } from '../../../test/fakes/assemble-parts.js';
import { snapshotSchema } from '../../domain/snapshot.js';
import { assembleSnapshot } from './assemble-snapshot.js';

const lastResult = (ok: boolean, data: Record<string, unknown>) => ({
  checkedAt: NOW,
  ok,
  latencyMs: 20,
  message: ok ? 'ok' : null,
  error: ok ? null : 'timed out',
  data,
  source: 'edge' as const,
});

describe('the join of a snapshot component', () => {
  const cs = monitor('mon_cs', {
    type: 'source',
    config: { host: 'cs.example.com', port: 27016 },
    lastResult: lastResult(true, { players: 24, maxPlayers: 24, passwordProtected: true, gamePort: 27015 }),
  });
  const mc = monitor('mon_mc', { type: 'minecraft-java', config: { host: 'play.example.com', port: 25565 } });
  const web = monitor('mon_web', { type: 'http', config: { url: 'https://example.com' } });

  const snapshot = (components: ReturnType<typeof component>[], monitors = [cs, mc, web]) =>
    assembleSnapshot(parts({ components, monitors: new Map(monitors.map((m) => [m.id, m])) }));

  it('derives the join from the monitor and the badges from its last check', () => {
    const s = snapshot([
      component('cmp_cs', 'mon_cs', 0),
      component('cmp_mc', 'mon_mc', 1),
      component('cmp_web', 'mon_web', 2),
    ]);
    expect(snapshotSchema.parse(s)).toEqual(s);
    expect(s.components.map((c) => [c.join, c.badges])).toEqual([
      [
        {
          kind: 'steam',
          label: 'cs.example.com:27015',
          address: 'cs.example.com:27015',
          url: 'steam://connect/cs.example.com:27015',
        },
        [{ kind: 'full' }, { kind: 'password' }],
      ],
      [{ kind: 'copy', label: 'play.example.com', address: 'play.example.com' }, []],
      [null, []],
    ]);
  });

  it('follows the component: hidden, or its own address', () => {
    const hidden = { ...component('cmp_cs', 'mon_cs', 0), join: 'hidden' as const };
    const custom = { ...component('cmp_web', 'mon_web', 1), join: { url: 'https://cfx.re/join/abc123' } };
    const s = snapshot([hidden, custom]);
    expect(s.components[0]?.join).toBeNull();
    expect(s.components[0]?.badges).toEqual([{ kind: 'full' }, { kind: 'password' }]);
    expect(s.components[1]?.join).toEqual({
      kind: 'link',
      label: 'cfx.re/join/abc123',
      url: 'https://cfx.re/join/abc123',
    });
  });

  it('makes no badges of a failed check', () => {
    const down = { ...cs, lastResult: lastResult(false, { players: 24, maxPlayers: 24 }) };
    const s = snapshot([component('cmp_cs', 'mon_cs', 0)], [down]);
    expect(s.components[0]?.badges).toEqual([]);
    expect(s.components[0]?.join?.url).toBe('steam://connect/cs.example.com:27016');
  });
});
