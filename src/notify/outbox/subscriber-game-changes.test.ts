// A game change reaches the subscribers (email, webhook, Discord, Slack) of the pages that show its monitor and
// announce game changes; a page with the setting off, the default, sends its subscribers nothing of it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import type { PageSubscriber } from '../../domain/subscriber.js';
import { playerItem } from '../events/players.js';
import { createNotificationOutbox } from './outbox.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const YAML = `
organization: { key: acme, name: Acme }
monitors: [{ key: rust, name: Rust, type: heartbeat, playerAlerts: { changes: [map] } }]
pages:
  - { slug: main, title: Main, subscriptions: true, announceGameChanges: true, components: [{ name: Rust Main, monitor: rust }] }
  - { slug: quiet, title: Quiet, subscriptions: true, components: [{ name: Rust Main, monitor: rust }] }
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`game changes to page subscribers on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(() => opened.cleanup());

    it('enqueues one delivery per confirmed subscriber of an announcing page, none for the others', async () => {
      const { store } = opened;
      const { report, monitors } = await seed(store, YAML, NOW);
      const organizationId = report.organization.id;
      const subscriber = (id: string, slug: string, extra: Partial<PageSubscriber>): PageSubscriber => ({
        id,
        organizationId,
        pageId: '',
        kind: 'webhook',
        format: 'warden',
        address: `https://hooks.example/${id}`,
        secret: null,
        confirmTokenHash: null,
        unsubscribeToken: `${id}.u`,
        confirmedAt: NOW,
        expiresAt: null,
        requestedBy: null,
        createdAt: NOW,
        ...extra,
        ...{ slug },
      });
      const pages = Object.fromEntries((await store.pages.list(organizationId)).map((p) => [p.slug, p.id]));
      for (const [id, slug, extra] of [
        ['sub_mail', 'main', { kind: 'email', address: 'player@example.test' }],
        ['sub_hook', 'main', { secret: 'whsec_x' }],
        ['sub_discord', 'main', { format: 'discord' }],
        ['sub_slack', 'main', { format: 'slack' }],
        ['sub_quiet', 'quiet', { kind: 'email', address: 'other@example.test' }],
      ] as const) {
        const { slug: _, ...row } = subscriber(id, slug, extra) as PageSubscriber & { slug: string };
        await store.subscribers.insert({ ...row, pageId: pages[slug] as string });
      }
      const outbox = createNotificationOutbox({ clock: { now: () => NOW }, baseUrl: () => 'https://s.example' });
      const fact = { kind: 'changed', field: 'map', from: 'Barren', to: 'Hapis', at: NOW } as const;
      const item = playerItem(monitors.rust!, fact);
      const enqueued = await store.transaction((tx) => outbox.publish(tx, [item], NOW));
      expect(enqueued).toBe(4);
      const due = await store.deliveries.claimDue(NOW + 1, 10, 60_000);
      expect(due.map((d) => d.subscriberId).sort()).toEqual(['sub_discord', 'sub_hook', 'sub_mail', 'sub_slack']);
      const event = JSON.parse(due[0]?.event ?? '{}');
      expect(event).toMatchObject({
        kind: 'game.changed',
        title: 'Rust: map changed to Hapis',
        pages: [{ slug: 'main', url: 'https://s.example/s/main' }],
      });
      outbox.close();
    });
  });
