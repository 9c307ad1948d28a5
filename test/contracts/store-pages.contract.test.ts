// Store contract, status pages: lookups by slug and domain, partial updates, cascades (their components:
// store-components.contract.test.ts).

import { beforeEach, expect, it } from 'vitest';
import { EMPTY_BRANDING } from '../../src/domain/branding.js';
import type { Page } from '../../src/domain/page.js';
import {
  addComponent,
  addOrganization,
  addPage,
  describeStore,
  incidentSpec,
  maintenanceSpec,
  NOW,
  ORG,
  OTHER_ORG,
  pageSpec,
  rejectionOf,
  updateIds,
} from './store-fixtures.js';

describeStore('pages', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
  });

  it('stores a new page exactly as written', async () => {
    const spec = pageSpec('status', {
      title: 'Acme status',
      description: 'All our servers',
      customDomain: 'status.acme.test',
      aiPolicy: 'disallow',
    });
    await store().pages.insert(
      { ...spec, id: 'pg_a', organizationId: ORG.id, passwordHash: 'scrypt$hash', managedBy: 'config' },
      NOW,
    );
    expect(await store().pages.findById('pg_a')).toEqual({
      id: 'pg_a',
      organizationId: ORG.id,
      slug: 'status',
      title: 'Acme status',
      description: 'All our servers',
      customDomain: 'status.acme.test',
      customDomainToken: null,
      customDomainVerifiedAt: null,
      customDomainCheckedAt: null,
      passwordHash: 'scrypt$hash',
      aiPolicy: 'disallow',
      notify: null,
      subscriptions: false,
      showPlayerNames: false,
      announceGameChanges: false,
      publishUptimeHistory: false,
      showUnreachable: false,
      draftIncidents: null,
      language: null,
      timeZone: 'UTC',
      branding: EMPTY_BRANDING,
      customCss: null,
      managedBy: 'config',
      createdAt: NOW,
      updatedAt: NOW,
    } satisfies Page);
  });

  it('keeps a page’s language, time zone, branding and stylesheet, and changes them alone', async () => {
    await addPage(store(), 'status');
    const page = (await store().pages.findBySlug('status')) as Page;
    expect(page).toMatchObject({ language: null, timeZone: 'UTC', branding: EMPTY_BRANDING, customCss: null });
    const branding = {
      accentColor: '#4752c4',
      logoUrl: 'https://cdn.example.com/logo.png',
      faviconUrl: null,
      links: [{ label: 'Discord', url: 'https://discord.gg/acme' }],
      footerText: 'Acme Games · Ünïcode ✓',
      hidePoweredBy: true,
    };
    await store().pages.update(
      page.id,
      { language: 'pt-BR', timeZone: 'America/Sao_Paulo', branding, customCss: '.banner{border-radius:0}' },
      NOW + 1,
    );
    expect(await store().pages.findById(page.id)).toMatchObject({
      language: 'pt-BR',
      timeZone: 'America/Sao_Paulo',
      branding,
      customCss: '.banner{border-radius:0}',
      title: page.title,
      updatedAt: NOW + 1,
    });
  });

  it('stores a page’s images byte for byte, replaces one by name, and drops them with the page', async () => {
    await addPage(store(), 'status');
    const page = (await store().pages.findBySlug('status')) as Page;
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);
    await store().pageAssets.put({
      pageId: page.id,
      name: 'logo',
      contentType: 'image/png',
      body: bytes,
      digest: 'd1',
      updatedAt: NOW,
    });
    await store().pageAssets.put({
      pageId: page.id,
      name: 'favicon',
      contentType: 'image/x-icon',
      body: Buffer.from([0, 0, 1, 0]),
      digest: 'd2',
      updatedAt: NOW,
    });
    const logo = await store().pageAssets.get(page.id, 'logo');
    expect(logo?.body.equals(bytes)).toBe(true);
    expect(logo).toMatchObject({ contentType: 'image/png', digest: 'd1', updatedAt: NOW });
    await store().pageAssets.put({
      pageId: page.id,
      name: 'logo',
      contentType: 'image/webp',
      body: Buffer.from('RIFF'),
      digest: 'd3',
      updatedAt: NOW + 1,
    });
    expect(await store().pageAssets.digests(page.id)).toEqual([
      { name: 'favicon', digest: 'd2', contentType: 'image/x-icon' },
      { name: 'logo', digest: 'd3', contentType: 'image/webp' },
    ]);
    expect(await store().pageAssets.delete(page.id, 'favicon')).toBe(true);
    expect(await store().pageAssets.delete(page.id, 'favicon')).toBe(false);
    await store().pages.delete(page.id);
    expect(await store().pageAssets.get(page.id, 'logo')).toBeUndefined();
  });

  it('lists every page, or one organization’s, by slug, and counts them', async () => {
    await addPage(store(), 'c');
    await addPage(store(), 'a');
    await addPage(store(), 'b', { organizationId: OTHER_ORG.id });
    expect((await store().pages.list()).map((p) => p.slug)).toEqual(['a', 'b', 'c']);
    expect((await store().pages.list(ORG.id)).map((p) => p.slug)).toEqual(['a', 'c']);
    expect(await store().pages.count(ORG.id)).toBe(2);
  });

  it('finds a page by slug and by custom domain, whatever its case', async () => {
    await addPage(store(), 'status', { customDomain: 'status.acme.test' });
    expect(await store().pages.findBySlug('status')).toMatchObject({ id: 'pg_status' });
    expect(await store().pages.findByDomain('Status.ACME.test')).toMatchObject({ id: 'pg_status' });
    expect(await store().pages.findBySlug('unknown')).toBeUndefined();
    expect(await store().pages.findByDomain('other.acme.test')).toBeUndefined();
    expect(await store().pages.findById('pg_unknown')).toBeUndefined();
  });

  it('updates only the columns the change names', async () => {
    await addPage(store(), 'status', {
      description: 'About',
      customDomain: 'status.acme.test',
      passwordHash: 'scrypt$1',
      managedBy: 'config',
    });
    const before = (await store().pages.findById('pg_status')) as Page;
    await store().pages.update('pg_status', { title: 'New title' }, NOW + 1000);
    expect(await store().pages.findById('pg_status')).toEqual({ ...before, title: 'New title', updatedAt: NOW + 1000 });
    await store().pages.update(
      'pg_status',
      { description: null, passwordHash: null, managedBy: 'api', aiPolicy: 'disallow' },
      NOW + 2000,
    );
    expect(await store().pages.findById('pg_status')).toEqual({
      ...before,
      title: 'New title',
      description: null,
      passwordHash: null,
      managedBy: 'api',
      aiPolicy: 'disallow',
      updatedAt: NOW + 2000,
    });
    await store().pages.update('pg_status', { slug: 'renamed', customDomain: null }, NOW + 3000);
    expect(await store().pages.findBySlug('renamed')).toMatchObject({
      id: 'pg_status',
      customDomain: null,
      title: 'New title',
      subscriptions: false,
    });
    await store().pages.update('pg_status', { subscriptions: true }, NOW + 4000);
    expect(await store().pages.findById('pg_status')).toMatchObject({ subscriptions: true, title: 'New title' });
    await store().pages.update('pg_status', { showPlayerNames: true }, NOW + 5000);
    expect(await store().pages.findById('pg_status')).toMatchObject({ showPlayerNames: true, subscriptions: true });
    await store().pages.update('pg_status', { announceGameChanges: true }, NOW + 6000);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      announceGameChanges: true,
      showPlayerNames: true,
    });
    await store().pages.update('pg_status', { showUnreachable: true }, NOW + 7000);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      showUnreachable: true,
      announceGameChanges: true,
    });
  });

  it('keeps a custom domain’s proof, and records a check only while the page claims that domain with that token', async () => {
    await addPage(store(), 'status', { customDomain: 'status.acme.test' });
    await store().pages.update(
      'pg_status',
      { customDomainToken: 'wdv_one', customDomainVerifiedAt: null, customDomainCheckedAt: null },
      NOW + 1000,
    );
    const claim = { domain: 'status.acme.test', token: 'wdv_one' };
    expect(
      await store().pages.recordDomainCheck('pg_status', { ...claim, token: 'wdv_old' }, NOW + 2000, NOW + 2000),
    ).toBe(false);
    expect(
      await store().pages.recordDomainCheck(
        'pg_status',
        { ...claim, domain: 'other.acme.test' },
        NOW + 2000,
        NOW + 2000,
      ),
    ).toBe(false);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      customDomainVerifiedAt: null,
      customDomainCheckedAt: null,
      updatedAt: NOW + 1000,
    });
    // Verified: the page's version moves (readers rebuild); checked again, still verified: only the check time moves.
    expect(await store().pages.recordDomainCheck('pg_status', claim, NOW + 2000, NOW + 2000)).toBe(true);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      customDomainToken: 'wdv_one',
      customDomainVerifiedAt: NOW + 2000,
      customDomainCheckedAt: NOW + 2000,
      updatedAt: NOW + 2000,
    });
    expect(await store().pages.recordDomainCheck('pg_status', claim, NOW + 2000, NOW + 3000)).toBe(true);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      customDomainVerifiedAt: NOW + 2000,
      customDomainCheckedAt: NOW + 3000,
      updatedAt: NOW + 2000,
    });
    expect(await store().pages.recordDomainCheck('pg_status', claim, null, NOW + 4000)).toBe(true);
    expect(await store().pages.findById('pg_status')).toMatchObject({
      customDomainVerifiedAt: null,
      customDomainCheckedAt: NOW + 4000,
      updatedAt: NOW + 4000,
    });
    await store().pages.insert(
      {
        ...pageSpec('config', { customDomain: 'config.acme.test' }),
        id: 'pg_config',
        organizationId: ORG.id,
        passwordHash: null,
        managedBy: 'config',
        customDomainVerifiedAt: NOW,
      },
      NOW,
    );
    expect(await store().pages.findById('pg_config')).toMatchObject({
      customDomainToken: null,
      customDomainVerifiedAt: NOW,
      customDomainCheckedAt: null,
    });
  });

  it('deletes a page with its components, incidents and maintenance', async () => {
    const pageId = await addPage(store(), 'status');
    const kept = await addPage(store(), 'kept');
    const componentId = await addComponent(store(), pageId, 'lobby');
    await addComponent(store(), kept, 'other');
    await store().incidents.insert(
      {
        ...incidentSpec('outage', {
          componentIds: [componentId],
          updates: [{ status: 'investigating', message: 'Looking', at: NOW }],
        }),
        id: 'inc_a',
        pageId,
        managedBy: 'api',
      },
      updateIds(),
      NOW,
    );
    await store().maintenance.insert(
      { ...maintenanceSpec('upgrade', { componentIds: [componentId] }), id: 'mnt_a', pageId, managedBy: 'api' },
      NOW,
    );
    await store().pages.delete(pageId);
    expect(await store().pages.findById(pageId)).toBeUndefined();
    expect(await store().components.findById(componentId)).toBeUndefined();
    expect(await store().incidents.findById('inc_a')).toBeUndefined();
    expect(await store().maintenance.findById('mnt_a')).toBeUndefined();
    expect((await store().components.list(kept)).map((c) => c.id)).toEqual(['cmp_other']);
  });

  it('refuses a second page with the same slug, or the same domain, as a unique violation', async () => {
    await addPage(store(), 'status', { customDomain: 'status.acme.test' });
    const slug = await rejectionOf(
      store().pages.insert(
        { ...pageSpec('status'), id: 'pg_twin', organizationId: OTHER_ORG.id, passwordHash: null, managedBy: 'api' },
        NOW,
      ),
    );
    expect(store().isUniqueViolation(slug)).toBe(true);
    const domain = await rejectionOf(addPage(store(), 'other', { customDomain: 'status.acme.test' }));
    expect(store().isUniqueViolation(domain)).toBe(true);
  });
});
