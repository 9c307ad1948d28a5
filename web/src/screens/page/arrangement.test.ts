// Moving components by keyboard and by drag and drop gives the order the public page will show.
import { describe, expect, it } from 'vitest';
import { dropGroup, dropItem, groupsOf, moveGroup, moveItem, type Placed } from './arrangement';

const c = (id: string, group: string | null): Placed => ({ id, group });
const LIST = [
  c('proxy', 'Network'),
  c('lobby', 'Servers'),
  c('dns', 'Network'),
  c('survival', 'Servers'),
  c('site', null),
];
const shown = (items: readonly Placed[] | null) =>
  items ? groupsOf(items).map((b) => `${b.group ?? '-'}: ${b.items.map((i) => i.id).join(' ')}`) : null;

describe('the page editor’s arrangement', () => {
  it('shows each group where its first component is, blank groups as none', () => {
    expect(shown([...LIST, c('faq', ' ')])).toEqual(['Network: proxy dns', 'Servers: lobby survival', '-: site faq']);
  });

  it('moves a component one step within its group, then across into the next group, and no further than the ends', () => {
    expect(shown(moveItem(LIST, 'proxy', 1))).toEqual(['Network: dns proxy', 'Servers: lobby survival', '-: site']);
    expect(shown(moveItem(LIST, 'dns', 1))).toEqual(['Network: proxy', 'Servers: dns lobby survival', '-: site']);
    expect(shown(moveItem(LIST, 'lobby', -1))).toEqual(['Network: proxy dns lobby', 'Servers: survival', '-: site']);
    expect(moveItem(LIST, 'lobby', -1)?.find((i) => i.id === 'lobby')?.group).toBe('Network');
    expect(moveItem(LIST, 'proxy', -1)).toBeNull();
    expect(moveItem(LIST, 'site', 1)).toBeNull();
    expect(moveItem(LIST, 'unknown', 1)).toBeNull();
  });

  it('drops a group when its last component leaves it', () => {
    expect(shown(moveItem(LIST, 'site', -1))).toEqual(['Network: proxy dns', 'Servers: lobby survival site']);
  });

  it('moves whole groups', () => {
    expect(shown(moveGroup(LIST, 'Servers', -1))).toEqual(['Servers: lobby survival', 'Network: proxy dns', '-: site']);
    expect(moveGroup(LIST, 'Network', -1)).toBeNull();
    expect(moveGroup(LIST, null, 1)).toBeNull();
  });

  it('drops a component before another (taking its group) or at the end of a group, and a group before another', () => {
    expect(shown(dropItem(LIST, 'site', { before: 'lobby' }))).toEqual([
      'Network: proxy dns',
      'Servers: site lobby survival',
    ]);
    expect(shown(dropItem(LIST, 'proxy', { group: 'Servers' }))).toEqual([
      'Network: dns',
      'Servers: lobby survival proxy',
      '-: site',
    ]);
    expect(shown(dropItem(LIST, 'proxy', { before: 'proxy' }))).toEqual(shown(LIST));
    expect(shown(dropGroup(LIST, null, 'Network'))).toEqual([
      '-: site',
      'Network: proxy dns',
      'Servers: lobby survival',
    ]);
  });
});
