// The channel recipients repository on every dialect: one row per organization and address, a confirmation link only
// when the address may be asked (never twice at once, never after it unsubscribed), confirming and unsubscribing once,
// the pending count, and forgetting addresses that never confirmed.
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { addOrganization, describeStore, NOW, ORG, OTHER_ORG } from './store-fixtures.js';

const HOUR = 3_600_000;
const LINK = 48 * HOUR;

let seq = 0;
function link(hash = 'hash-1', expiresAt = NOW + LINK) {
  seq += 1;
  const id = `rcp_${String(seq).padStart(16, '0')}`;
  return { id, unsubscribeToken: `${id}.unsubscribe`, confirmTokenHash: hash, expiresAt };
}

async function setUp(store: Store): Promise<void> {
  await addOrganization(store);
  await addOrganization(store, OTHER_ORG);
}

describeStore('store channel recipients', (store) => {
  it('keeps one row per organization and address, and asks an address again only once its link expired', async () => {
    await setUp(store());
    const first = await store().recipients.ask(ORG.id, 'ops@acme.test', link('hash-1'), NOW);
    expect(first).toMatchObject({
      organizationId: ORG.id,
      address: 'ops@acme.test',
      confirmTokenHash: 'hash-1',
      askedAt: NOW,
      expiresAt: NOW + LINK,
      confirmedAt: null,
      unsubscribedAt: null,
      createdAt: NOW,
    });
    // The same address in another organization is another recipient.
    expect(await store().recipients.ask(OTHER_ORG.id, 'ops@acme.test', link('hash-x'), NOW)).toMatchObject({
      organizationId: OTHER_ORG.id,
    });
    // The link still works: not asked again, whatever the token.
    expect(await store().recipients.ask(ORG.id, 'ops@acme.test', link('hash-2'), NOW + LINK - 1)).toBeUndefined();
    const again = await store().recipients.ask(ORG.id, 'ops@acme.test', link('hash-3', NOW + LINK + LINK), NOW + LINK);
    // The row is the first one's (its id and unsubscribe token), with the new link.
    expect(again).toMatchObject({
      id: first?.id,
      unsubscribeToken: first?.unsubscribeToken,
      confirmTokenHash: 'hash-3',
      askedAt: NOW + LINK,
      expiresAt: NOW + LINK + LINK,
      createdAt: NOW,
    });
    expect(
      (await store().recipients.findByAddresses(ORG.id, ['ops@acme.test', 'nobody@acme.test'])).map((r) => r.id),
    ).toEqual([first?.id]);
    expect(await store().recipients.findByAddresses(ORG.id, [])).toEqual([]);
    expect(await store().recipients.findById(first?.id ?? '')).toEqual(again);
  });

  it('lets one of two concurrent asks win', async () => {
    await setUp(store());
    const asks = await Promise.all(
      [1, 2, 3].map((n) => store().recipients.ask(ORG.id, 'race@acme.test', link(`hash-${n}`), NOW)),
    );
    expect(asks.filter((row) => row !== undefined)).toHaveLength(1);
    expect(await store().recipients.findByAddresses(ORG.id, ['race@acme.test'])).toHaveLength(1);
  });

  it('takes back a link that was not mailed, only while it is the last one', async () => {
    await setUp(store());
    const asked = await store().recipients.ask(ORG.id, 'ops@acme.test', link('hash-1'), NOW);
    await store().recipients.unask(asked?.id ?? '', 'hash-other');
    expect(await store().recipients.findById(asked?.id ?? '')).toMatchObject({ confirmTokenHash: 'hash-1' });
    await store().recipients.unask(asked?.id ?? '', 'hash-1');
    expect(await store().recipients.findById(asked?.id ?? '')).toMatchObject({
      confirmTokenHash: null,
      askedAt: null,
      expiresAt: null,
    });
    expect(await store().recipients.ask(ORG.id, 'ops@acme.test', link('hash-2'), NOW + 1)).toMatchObject({
      confirmTokenHash: 'hash-2',
    });
  });

  it('confirms once, never asks a confirmed address again, and an unsubscribe is for good', async () => {
    await setUp(store());
    const asked = await store().recipients.ask(ORG.id, 'ops@acme.test', link(), NOW);
    const id = asked?.id ?? '';
    expect(await store().recipients.confirm(id, NOW + 5)).toBe(true);
    expect(await store().recipients.confirm(id, NOW + 6)).toBe(false);
    expect(await store().recipients.findById(id)).toMatchObject({
      confirmedAt: NOW + 5,
      confirmTokenHash: null,
      expiresAt: null,
    });
    expect(await store().recipients.ask(ORG.id, 'ops@acme.test', link(), NOW + 10 * LINK)).toBeUndefined();

    expect(await store().recipients.unsubscribe(id, NOW + 7)).toBe(true);
    expect(await store().recipients.unsubscribe(id, NOW + 8)).toBe(false);
    expect(await store().recipients.findById(id)).toMatchObject({ unsubscribedAt: NOW + 7, confirmedAt: null });
    expect(await store().recipients.confirm(id, NOW + 9)).toBe(false);
    expect(await store().recipients.ask(ORG.id, 'ops@acme.test', link(), NOW + 10 * LINK)).toBeUndefined();
  });

  it('counts the live links of an organization, and forgets addresses never confirmed, in batches', async () => {
    await setUp(store());
    for (const n of [1, 2, 3, 4])
      await store().recipients.ask(ORG.id, `p${n}@acme.test`, link(`h${n}`, NOW + n * HOUR), NOW);
    await store().recipients.ask(OTHER_ORG.id, 'p1@acme.test', link(), NOW);
    const confirmed = await store().recipients.ask(ORG.id, 'c@acme.test', link(), NOW);
    await store().recipients.confirm(confirmed?.id ?? '', NOW);
    const gone = await store().recipients.ask(ORG.id, 'u@acme.test', link(), NOW);
    await store().recipients.unsubscribe(gone?.id ?? '', NOW);
    expect(await store().recipients.countPending(ORG.id, NOW)).toBe(4);
    expect(await store().recipients.countPending(ORG.id, NOW + 2 * HOUR)).toBe(2);

    await store().recipients.ask(ORG.id, 'later@acme.test', link(), NOW + HOUR);
    expect(await store().recipients.pruneUnconfirmed(NOW, 10)).toBe(0);
    expect(await store().recipients.pruneUnconfirmed(NOW + 1, 3)).toBe(3);
    expect(await store().recipients.pruneUnconfirmed(NOW + 1, 3)).toBe(2);
    const left = await store().recipients.findByAddresses(ORG.id, [
      'p1@acme.test',
      'c@acme.test',
      'u@acme.test',
      'later@acme.test',
    ]);
    expect(left.map((r) => r.address)).toEqual(['c@acme.test', 'later@acme.test', 'u@acme.test']);
  });

  it('goes with its organization', async () => {
    await setUp(store());
    const asked = await store().recipients.ask(OTHER_ORG.id, 'ops@acme.test', link(), NOW);
    await store().organizations.delete(OTHER_ORG.id);
    expect(await store().recipients.findById(asked?.id ?? '')).toBeUndefined();
  });
});
