// A page of game servers with join buttons and badges: a Steam link, an address to copy, a cfx.re link, and a website.
import type { Snapshot } from '../../src/domain/snapshot.js';
import { minecraftLive } from './snapshot-parts.js';
import { component, snapshotOf } from './snapshots.js';

export function joinSnapshot(): Snapshot {
  return snapshotOf(
    [
      component({
        id: 'cs',
        name: 'Counter-Strike',
        join: {
          kind: 'steam',
          label: '203.0.113.5:27015',
          address: '203.0.113.5:27015',
          url: 'steam://connect/203.0.113.5:27015',
        },
        badges: [{ kind: 'full' }, { kind: 'password' }],
      }),
      component({
        id: 'mc',
        name: 'Survival <SMP>',
        live: minecraftLive(12, 100, 30, '1.21', null),
        join: { kind: 'copy', label: 'play.example.com', address: 'play.example.com' },
        badges: [{ kind: 'whitelist' }, { kind: 'queue', count: 7 }],
      }),
      component({
        id: 'rp',
        name: 'Roleplay',
        join: { kind: 'link', label: 'cfx.re/join/abc123', url: 'https://cfx.re/join/abc123' },
      }),
      component({ id: 'web', name: 'Website' }),
    ],
    {},
  );
}
