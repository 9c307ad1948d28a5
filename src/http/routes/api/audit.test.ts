import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { apiOperations } from '../../../../test/api-objects.js';
import { auditSteps, type Step } from '../../../../test/audit-steps.js';
import { seedDrafts } from '../../../../test/audit-steps-drafts.js';
import { type DnsZone, type FakeDnsServer, startDnsFake } from '../../../../test/fakes/dns-server.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { type PterodactylPanelFake, startPterodactylPanel } from '../../../../test/fakes/pterodactyl-panel.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';

/** Every Warden secret's prefix, and a webhook secret's: none may ever appear in the audit log. */
const SECRETS = /wd[nrpsiu]_|whsec_|hunter2/;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the audit log on ${dialect.name}`, () => {
    let h: ApiHarness;
    let dns: FakeDnsServer;
    let receiver: Receiver;
    let panel: PterodactylPanelFake;
    const zone: DnsZone = {};
    let owner: SignedInUser;
    let member: SignedInUser;
    let keyId: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      dns = await startDnsFake(zone);
      receiver = await startReceiver({ status: 204 });
      panel = await startPterodactylPanel();
      // The notification receiver listens on loopback, which these organizations may reach.
      h = await openApiHarness(dialect, {
        security: { probePrivateTargets: 'allow' },
        domains: { dnsServers: [dns.address] },
      });
      owner = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }], { name: 'Audrey Owner' });
      member = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'viewer' }], {
        email: 'member@example.com',
      });
      keyId = (await h.store.apiKeys.list(h.a.id)).find((k) => k.scope === 'write')?.id as string;
      // An open alert to acknowledge (a monitor went down).
      const lobby = h.a.monitors.lobby?.id as string;
      const opened = { id: 'alr_audited', organizationId: h.a.id, monitorId: lobby, openedState: 'down' as const };
      ids.alert = (await h.store.alerts.open({ ...opened, openedAt: h.clock.now(), policyId: null })).id;
      await seedDrafts(h);
    });
    afterAll(async () => {
      await h?.close();
      await dns?.close();
      await receiver?.close();
      await panel?.close();
    });

    const call = (step: Pick<Step, 'by' | 'org'>, method: string, path: string, body?: unknown) =>
      step.by === 'key'
        ? h.call(method, path, { body })
        : h.call(method, path, {
            key: null,
            body,
            headers: {
              cookie: owner.cookie,
              origin: BASE_URL,
              ...(step.org ? { 'x-warden-organization': step.org } : {}),
            },
          });
    const steps = auditSteps({
      h: () => h,
      member: () => member,
      receiver: () => receiver,
      zone,
      ids,
      panel: () => panel,
    });

    it('has a step for every write of the organization API', async () => {
      const writes = (await apiOperations(h)).filter((o) => o.write).map((o) => `${o.method} ${o.path}`);
      expect([...steps.map((s) => s.op)].sort()).toEqual([...writes, 'POST /api/v1/organizations'].sort());
    });

    it('records each write with its action, its object and who made it (user or API key), in the same transaction', async () => {
      for (const step of steps) {
        h.clock.advance(1000);
        // The subscriber joins once its page exists.
        if (step.op.includes('/subscribers/{id}'))
          await addSubscriber(step.op.endsWith('/approve') ? 'slack' : 'warden');
        const organizationId = step.org ? ((await h.store.organizations.findByKey(step.org))?.id as string) : h.a.id;
        const before = await h.store.audit.list({ organizationId, limit: ACCOUNT_LIMITS.auditPageMax });
        const [method, template] = step.op.split(' ') as [string, string];
        const res = await call(step, method, step.path(), step.body?.());
        expect(res.status, `${step.op}: ${res.status === 204 ? '' : await res.clone().text()}`).toBeLessThan(300);
        if (res.status !== 204) step.keep?.(await res.json());
        if (step.action === null) continue;
        const target = step.op === 'POST /api/v1/organizations' ? ids.organization : organizationId;
        const entries = await h.store.audit.list({
          organizationId: target as string,
          limit: ACCOUNT_LIMITS.auditPageMax,
        });
        expect(entries.length - (target === organizationId ? before.length : 0), step.op).toBe(1);
        const entry = entries[0];
        expect(entry, `${method} ${template}`).toMatchObject({
          at: h.clock.now(),
          action: step.action,
          objectType: step.action.split('.')[0],
          ...(step.by === 'user'
            ? { actorKind: 'user', actorId: owner.userId, actorName: 'Audrey Owner' }
            : { actorKind: 'apiKey', actorId: keyId, actorName: 'write' }),
          ...(step.objectId ? { objectId: step.objectId() } : {}),
        });
        expect(JSON.stringify(entry), step.op).not.toMatch(SECRETS);
      }
      // Deleting the organization took its log with it.
      expect(await h.store.audit.list({ organizationId: ids.organization as string, limit: 10 })).toEqual([]);
    });

    it('names the fields a change sets, never their values', async () => {
      const { entries } = await (await h.call('GET', '/api/v1/audit?objectType=page&limit=10')).json();
      const created = entries.find((e: { action: string }) => e.action === 'page.create');
      expect(created.detail).toEqual({ fields: ['customDomain', 'password', 'slug', 'title'] });
      expect(created.object).toEqual({ type: 'page', id: ids.page, label: 'audited' });
      const channel = (await (await h.call('GET', '/api/v1/audit?objectType=notification-channel&limit=10')).json())
        .entries;
      expect(channel.find((e: { action: string }) => e.action === 'notification-channel.update').detail).toEqual({
        fields: ['config', 'name'],
      });
      expect(channel.find((e: { action: string }) => e.action === 'notification-channel.test').detail).toEqual({
        outcome: 'sent',
      });
      const roles = (await (await h.call('GET', `/api/v1/audit?objectId=${member.userId}`)).json()).entries;
      expect(roles.map((e: { action: string; detail: unknown }) => [e.action, e.detail])).toEqual([
        ['member.remove', { role: 'editor' }],
        ['member.update', { fields: ['role'], role: 'editor' }],
      ]);
      expect(roles[1].object).toEqual({ type: 'member', id: member.userId, label: 'member@example.com' });
    });

    it('reads the log newest first, a page at a time, filtered by actor, object type or object', async () => {
      const all = await h.store.audit.list({ organizationId: h.a.id, limit: ACCOUNT_LIMITS.auditPageMax });
      expect(all.length).toBeGreaterThan(30);
      const paged: string[] = [];
      let next: string | null = null;
      do {
        const query: string = next === null ? '' : `&before=${next}`;
        const page = await (await h.call('GET', `/api/v1/audit?limit=7${query}`)).json();
        expect(page.entries.length).toBeLessThanOrEqual(7);
        paged.push(...page.entries.map((e: { id: string }) => e.id));
        next = page.next;
      } while (next !== null);
      expect(paged).toEqual(all.map((e) => e.id));
      const byKey = (await (await h.call('GET', `/api/v1/audit?actor=${keyId}&limit=200`)).json()).entries;
      expect(byKey.length).toBeGreaterThan(10);
      expect(
        byKey.every(
          (e: { actor: { kind: string; id: string; name: string } }) =>
            e.actor.kind === 'apiKey' && e.actor.id === keyId && e.actor.name === 'write',
        ),
      ).toBe(true);
      const relay = (await (await h.call('GET', `/api/v1/audit?objectType=relay&objectId=${ids.relay}`)).json())
        .entries;
      expect(relay.map((e: { action: string }) => e.action)).toEqual([
        'relay.delete',
        'relay.rotate-token',
        'relay.update',
        'relay.create',
      ]);
      expect(relay[0]).toEqual({
        id: expect.any(String),
        at: expect.any(Number),
        actor: { kind: 'apiKey', id: keyId, name: 'write' },
        action: 'relay.delete',
        object: { type: 'relay', id: ids.relay, label: 'attic' },
        detail: null,
      });
    });

    it('answers the log to admins only, and refuses a page larger than the cap or a cursor it did not give', async () => {
      const editor = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'editor' }]);
      expect((await h.call('GET', '/api/v1/audit', { key: null, headers: { cookie: editor.cookie } })).status).toBe(
        403,
      );
      expect((await h.call('GET', '/api/v1/audit', { key: h.a.readKey })).status).toBe(403);
      expect((await h.call('GET', '/api/v1/audit', { key: null, headers: { cookie: owner.cookie } })).status).toBe(200);
      expect((await h.call('GET', `/api/v1/audit?limit=${ACCOUNT_LIMITS.auditPageMax + 1}`)).status).toBe(400);
      const forged = await h.call('GET', '/api/v1/audit?before=not-a-cursor');
      expect(forged.status).toBe(400);
      expect((await forged.json()).errors[0].path).toBe('query.before');
      // Organization B's log holds none of A's.
      const theirs = (await (await h.call('GET', '/api/v1/audit?limit=200', { key: h.b.writeKey })).json()).entries;
      expect(theirs.map((e: { action: string }) => e.action)).toEqual(['config.apply']);
    });

    /** An email subscriber to delete, or a Slack webhook awaiting approval. */
    async function addSubscriber(format: 'warden' | 'slack'): Promise<void> {
      const page = await h.store.pages.findBySlug('audited');
      ids.subscriber = format === 'slack' ? 'sub_audited_slack' : 'sub_audited';
      await h.store.subscribers.insert({
        id: ids.subscriber,
        organizationId: h.a.id,
        pageId: page?.id as string,
        format,
        kind: format === 'slack' ? 'webhook' : 'email',
        address: format === 'slack' ? 'https://hooks.slack.com/services/T/B/x' : 'fan@example.com',
        secret: null,
        confirmTokenHash: null,
        unsubscribeToken: `unsub-${ids.subscriber}`,
        confirmedAt: format === 'slack' ? null : h.clock.now(),
        expiresAt: null,
        requestedBy: null,
        createdAt: h.clock.now(),
      });
    }
  });
}
