// A page that shows who is online: the operational network with names on two of its game servers, one list partial
// (Minecraft's sample of 12 out of 87) and one holding a hostile name, for the browser test and the docs' pictures.
import type { Snapshot } from '../../src/domain/snapshot.js';
import { operationalSnapshot } from './snapshots.js';

export const HOSTILE_PLAYER = '<img src=x onerror=alert(1)>';

const CREATIVE = [
  'Steve',
  'Alex',
  'BuilderBee',
  'xX_Redstone_Xx',
  'Mira',
  'Ørjan',
  'Kenji_42',
  'Zoë',
  'LlamaDrama',
  'Sakura',
  'Nico',
  HOSTILE_PLAYER,
];

/** The survival server lists its sample (12 of 87 online); creative lists all of its 12. */
export function playersSnapshot(): Snapshot {
  const snapshot = operationalSnapshot();
  for (const component of snapshot.components) {
    if (!component.live) continue;
    if (component.id === 'creative') component.live.playerNames = CREATIVE;
    if (component.id === 'survival')
      component.live.playerNames = ['Notch', 'jeb_', 'Dinnerbone', 'Grumm', ...CREATIVE.slice(0, 8)];
  }
  return snapshot;
}
