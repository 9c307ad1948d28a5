// The daily re-check of verified API domains: a record gone unverifies (and moves the change counter), DNS silence does not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import { DAY_MS } from '../domain/check.js';
import type { TxtAnswer } from '../domain/custom-domain.js';
import { createLogger } from '../logger.js';
import { createDomainRecheck } from './domain-recheck.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const PAGES = `
organization: { key: acme, name: Acme }
pages:
  - { slug: api, title: API }
  - { slug: config, title: Config, customDomain: config.acme.test }
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`re-checking custom domains on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
      await seed(opened.store, PAGES, NOW - 2 * DAY_MS);
      const page = await opened.store.pages.findBySlug('api');
      await opened.store.pages.update(
        page!.id,
        {
          customDomain: 'api.acme.test',
          customDomainToken: 'wdv_t',
          customDomainVerifiedAt: NOW - 2 * DAY_MS,
          customDomainCheckedAt: NOW - 2 * DAY_MS,
        },
        NOW - 2 * DAY_MS,
      );
    });
    afterEach(() => opened.cleanup());

    const recheckWith = (answer: TxtAnswer) => {
      const asked: string[] = [];
      const bus = createInProcessBus();
      const events: string[] = [];
      bus.subscribe('page.changed', (event) => void events.push(event.pageId));
      const recheck = createDomainRecheck({
        store: opened.store,
        bus,
        clock: { now: () => NOW },
        logger: createLogger('silent'),
        domainTxt: async (name) => {
          asked.push(name);
          return answer;
        },
      });
      return { recheck, asked, events };
    };
    const api = async () => (await opened.store.pages.findBySlug('api'))!;

    it('keeps a domain whose record is still there, noting when it looked (the operator’s domains are never looked up)', async () => {
      const { recheck, asked, events } = recheckWith({ records: ['wdv_t'] });
      expect(await recheck.recheck()).toEqual({ checked: 1, unverified: 0 });
      expect(asked).toEqual(['_warden.api.acme.test']);
      expect(await api()).toMatchObject({ customDomainVerifiedAt: NOW - 2 * DAY_MS, customDomainCheckedAt: NOW });
      expect(events).toEqual([]);
      // Checked now: not due again before a day has passed.
      expect(await recheck.recheck()).toEqual({ checked: 0, unverified: 0 });
    });

    it('unverifies a domain whose record is gone, moving the change counter and telling the page cache', async () => {
      const before = await opened.store.changes.current();
      const { recheck, events } = recheckWith({ records: ['something else'] });
      expect(await recheck.recheck()).toEqual({ checked: 1, unverified: 1 });
      expect(await api()).toMatchObject({ customDomainVerifiedAt: null, customDomainCheckedAt: NOW, updatedAt: NOW });
      expect(await opened.store.changes.current()).toBe(before + 1);
      expect(events).toEqual([(await api()).id]);
    });

    it('changes nothing when DNS does not answer', async () => {
      const { recheck } = recheckWith({ error: 'no answer within 5000 ms' });
      expect(await recheck.recheck()).toEqual({ checked: 0, unverified: 0 });
      expect(await api()).toMatchObject({
        customDomainVerifiedAt: NOW - 2 * DAY_MS,
        customDomainCheckedAt: NOW - 2 * DAY_MS,
      });
    });
  });
