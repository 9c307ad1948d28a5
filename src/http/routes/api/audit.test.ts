import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { apiOperations } from '../../../../test/api-objects.js';
import { type DnsZone, type FakeDnsServer, startDnsFake } from '../../../../test/fakes/dns-server.js';
import { solidPng } from '../../../../test/fakes/images.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
/** Every Warden secret's prefix, and a webhook secret's: none may ever appear in the audit log. */
const SECRETS = /wd[nrpsiu]_|whsec_|hunter2/;

/** One successful call of a write operation, as a user or with a write key, and the entry it must leave. */
interface Step {
  op: string;
  path: () => string;
  body?: () => unknown;
  by: 'user' | 'key';
  /** The action recorded; null: none (deleting the organization takes its log with it). */
  action: string | null;
  /** The object the entry names, when the step knows it. */
  objectId?: () => string;
  /** The organization the call acts for (X-Warden-Organization), when not Alpha. */
  org?: string;
  /** Keeps what a later step needs from the answer. */
  keep?: (answer: Record<string, unknown>) => void;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the audit log on ${dialect.name}`, () => {
    let h: ApiHarness;
    let dns: FakeDnsServer;
    let receiver: Receiver;
    const zone: DnsZone = {};
    let owner: SignedInUser;
    let member: SignedInUser;
    let keyId: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      dns = await startDnsFake(zone);
      receiver = await startReceiver({ status: 204 });
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
    });
    afterAll(async () => {
      await h?.close();
      await dns?.close();
      await receiver?.close();
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
    const keep =
      (name: string, field = 'id') =>
      (answer: Record<string, unknown>) => {
        ids[name] = answer[field] as string;
      };
    const id = (name: string) => () => ids[name] as string;

    /** Every write of the organization API, in an order where each succeeds. */
    const steps: Step[] = [
      {
        op: 'POST /api/v1/relays',
        path: () => '/api/v1/relays',
        body: () => ({ key: 'attic', name: 'Attic' }),
        by: 'key',
        action: 'relay.create',
        keep: keep('relay'),
      },
      {
        op: 'PATCH /api/v1/relays/{id}',
        path: () => `/api/v1/relays/${ids.relay}`,
        body: () => ({ name: 'Loft' }),
        by: 'user',
        action: 'relay.update',
        objectId: id('relay'),
      },
      {
        op: 'POST /api/v1/relays/{id}/token',
        path: () => `/api/v1/relays/${ids.relay}/token`,
        by: 'key',
        action: 'relay.rotate-token',
        objectId: id('relay'),
      },
      {
        op: 'POST /api/v1/monitors',
        path: () => '/api/v1/monitors',
        body: () => ({ key: 'cron', name: 'Cron', type: 'heartbeat', config: { graceSec: 3600 } }),
        by: 'user',
        action: 'monitor.create',
        keep: keep('monitor'),
      },
      {
        op: 'PATCH /api/v1/monitors/{id}',
        path: () => `/api/v1/monitors/${ids.monitor}`,
        body: () => ({ name: 'Nightly' }),
        by: 'key',
        action: 'monitor.update',
        objectId: id('monitor'),
      },
      {
        op: 'POST /api/v1/monitors/test',
        path: () => '/api/v1/monitors/test',
        body: () => ({ key: 'probe', name: 'Probe', type: 'tcp', config: { host: '127.0.0.1', port: 1 } }),
        by: 'key',
        action: 'monitor.test',
      },
      {
        op: 'POST /api/v1/monitors/{id}/check',
        path: () => `/api/v1/monitors/${h.a.monitors.lobby?.id}/check`,
        by: 'user',
        action: 'monitor.check',
        objectId: () => h.a.monitors.lobby?.id as string,
      },
      {
        op: 'POST /api/v1/monitors/{id}/push-token',
        path: () => `/api/v1/monitors/${ids.monitor}/push-token`,
        by: 'user',
        action: 'monitor.rotate-push-token',
        objectId: id('monitor'),
      },
      {
        op: 'POST /api/v1/pages',
        path: () => '/api/v1/pages',
        body: () => ({
          slug: 'audited',
          title: 'Audited',
          customDomain: 'status.audit.test',
          password: 'hunter2-page',
        }),
        by: 'key',
        action: 'page.create',
        keep: (page) => {
          ids.page = page.id as string;
          zone['_warden.status.audit.test'] = {
            TXT: [{ data: (page.customDomainVerification as { token: string }).token }],
          };
        },
      },
      {
        op: 'PATCH /api/v1/pages/{slug}',
        path: () => '/api/v1/pages/audited',
        body: () => ({ title: 'Audited too' }),
        by: 'user',
        action: 'page.update',
        objectId: id('page'),
      },
      {
        op: 'POST /api/v1/pages/{slug}/domain/verify',
        path: () => '/api/v1/pages/audited/domain/verify',
        by: 'key',
        action: 'page.verify-domain',
        objectId: id('page'),
      },
      {
        op: 'PUT /api/v1/pages/{slug}/assets/{name}',
        path: () => '/api/v1/pages/audited/assets/logo',
        body: () => solidPng('#12b886'),
        by: 'user',
        action: 'page.upload-asset',
        objectId: id('page'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}/assets/{name}',
        path: () => '/api/v1/pages/audited/assets/logo',
        by: 'key',
        action: 'page.delete-asset',
        objectId: id('page'),
      },
      {
        op: 'POST /api/v1/pages/{slug}/components',
        path: () => '/api/v1/pages/audited/components',
        body: () => ({ key: 'hub', name: 'Hub' }),
        by: 'user',
        action: 'component.create',
        keep: keep('component'),
      },
      {
        op: 'PATCH /api/v1/pages/{slug}/components/{id}',
        path: () => `/api/v1/pages/audited/components/${ids.component}`,
        body: () => ({ name: 'Hub 2' }),
        by: 'key',
        action: 'component.update',
        objectId: id('component'),
      },
      {
        op: 'POST /api/v1/pages/{slug}/components/order',
        path: () => '/api/v1/pages/audited/components/order',
        body: () => ({ components: [{ id: ids.component, group: 'Core' }] }),
        by: 'user',
        action: 'page.order-components',
        objectId: id('page'),
      },
      {
        op: 'POST /api/v1/pages/{slug}/incidents',
        path: () => '/api/v1/pages/audited/incidents',
        body: () => ({ title: 'Lag', message: 'Looking' }),
        by: 'key',
        action: 'incident.create',
        keep: keep('incident'),
      },
      {
        op: 'PATCH /api/v1/pages/{slug}/incidents/{id}',
        path: () => `/api/v1/pages/audited/incidents/${ids.incident}`,
        body: () => ({ title: 'Lag spikes' }),
        by: 'user',
        action: 'incident.update',
        objectId: id('incident'),
      },
      {
        op: 'POST /api/v1/incidents/{id}/updates',
        path: () => `/api/v1/incidents/${ids.incident}/updates`,
        body: () => ({ status: 'resolved', message: 'Fixed' }),
        by: 'key',
        action: 'incident.post-update',
        objectId: id('incident'),
      },
      {
        op: 'POST /api/v1/pages/{slug}/maintenance',
        path: () => '/api/v1/pages/audited/maintenance',
        body: () => ({ title: 'Move', startsAt: h.clock.now() + 3600_000, endsAt: h.clock.now() + 7200_000 }),
        by: 'user',
        action: 'maintenance.create',
        keep: keep('window'),
      },
      {
        op: 'PATCH /api/v1/pages/{slug}/maintenance/{id}',
        path: () => `/api/v1/pages/audited/maintenance/${ids.window}`,
        body: () => ({ title: 'Move 2' }),
        by: 'key',
        action: 'maintenance.update',
        objectId: id('window'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}/maintenance/{id}',
        path: () => `/api/v1/pages/audited/maintenance/${ids.window}`,
        by: 'user',
        action: 'maintenance.delete',
        objectId: id('window'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}/incidents/{id}',
        path: () => `/api/v1/pages/audited/incidents/${ids.incident}`,
        by: 'key',
        action: 'incident.delete',
        objectId: id('incident'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}/components/{id}',
        path: () => `/api/v1/pages/audited/components/${ids.component}`,
        by: 'user',
        action: 'component.delete',
        objectId: id('component'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}/subscribers/{id}',
        path: () => `/api/v1/pages/audited/subscribers/${ids.subscriber}`,
        by: 'key',
        action: 'subscriber.delete',
        objectId: id('subscriber'),
      },
      {
        op: 'POST /api/v1/notification-channels',
        path: () => '/api/v1/notification-channels',
        body: () => ({
          key: 'ops',
          name: 'Ops',
          type: 'webhook',
          config: { url: `${receiver.url}/hook`, secret: SECRET },
        }),
        by: 'user',
        action: 'notification-channel.create',
        keep: keep('channel'),
      },
      {
        op: 'PATCH /api/v1/notification-channels/{key}',
        path: () => '/api/v1/notification-channels/ops',
        body: () => ({ name: 'Ops room', config: { secret: SECRET } }),
        by: 'key',
        action: 'notification-channel.update',
        objectId: id('channel'),
      },
      {
        op: 'POST /api/v1/notification-channels/{key}/test',
        path: () => '/api/v1/notification-channels/ops/test',
        by: 'user',
        action: 'notification-channel.test',
        objectId: id('channel'),
      },
      {
        op: 'DELETE /api/v1/notification-channels/{key}',
        path: () => '/api/v1/notification-channels/ops',
        by: 'key',
        action: 'notification-channel.delete',
        objectId: id('channel'),
      },
      {
        op: 'POST /api/v1/api-keys',
        path: () => '/api/v1/api-keys',
        body: () => ({ name: 'ci', scope: 'read' }),
        by: 'user',
        action: 'api-key.create',
        keep: keep('apiKey'),
      },
      {
        op: 'DELETE /api/v1/api-keys/{id}',
        path: () => `/api/v1/api-keys/${ids.apiKey}`,
        by: 'key',
        action: 'api-key.revoke',
        objectId: id('apiKey'),
      },
      {
        op: 'DELETE /api/v1/monitors/{id}',
        path: () => `/api/v1/monitors/${ids.monitor}`,
        by: 'user',
        action: 'monitor.delete',
        objectId: id('monitor'),
      },
      {
        op: 'DELETE /api/v1/relays/{id}',
        path: () => `/api/v1/relays/${ids.relay}`,
        by: 'key',
        action: 'relay.delete',
        objectId: id('relay'),
      },
      {
        op: 'DELETE /api/v1/pages/{slug}',
        path: () => '/api/v1/pages/audited',
        by: 'user',
        action: 'page.delete',
        objectId: id('page'),
      },
      {
        op: 'POST /api/v1/invitations',
        path: () => '/api/v1/invitations',
        body: () => ({ email: 'guest@example.com', role: 'editor' }),
        by: 'key',
        action: 'invitation.create',
        keep: (answer) => {
          ids.invitation = (answer.invitation as { id: string }).id;
        },
      },
      {
        op: 'DELETE /api/v1/invitations/{id}',
        path: () => `/api/v1/invitations/${ids.invitation}`,
        by: 'user',
        action: 'invitation.revoke',
        objectId: id('invitation'),
      },
      {
        op: 'PATCH /api/v1/members/{userId}',
        path: () => `/api/v1/members/${member.userId}`,
        body: () => ({ role: 'editor' }),
        by: 'user',
        action: 'member.update',
        objectId: () => member.userId,
      },
      {
        op: 'DELETE /api/v1/members/{userId}',
        path: () => `/api/v1/members/${member.userId}`,
        by: 'key',
        action: 'member.remove',
        objectId: () => member.userId,
      },
      {
        op: 'POST /api/v1/organizations',
        path: () => '/api/v1/organizations',
        body: () => ({ key: 'audit-org', name: 'Audit' }),
        by: 'user',
        action: 'organization.create',
        keep: keep('organization'),
      },
      // Alpha is warden.yaml's (renaming it answers 409): the new one is renamed.
      {
        op: 'PATCH /api/v1/organization',
        path: () => '/api/v1/organization',
        body: () => ({ name: 'Audited' }),
        by: 'user',
        org: 'audit-org',
        action: 'organization.update',
        objectId: id('organization'),
      },
      {
        op: 'DELETE /api/v1/organization',
        path: () => '/api/v1/organization',
        body: () => ({ confirm: 'audit-org' }),
        by: 'user',
        org: 'audit-org',
        action: null,
      },
    ];

    it('has a step for every write of the organization API', async () => {
      const writes = (await apiOperations(h)).filter((o) => o.write).map((o) => `${o.method} ${o.path}`);
      expect([...steps.map((s) => s.op)].sort()).toEqual([...writes, 'POST /api/v1/organizations'].sort());
    });

    it('records each write with its action, its object and who made it (user or API key), in the same transaction', async () => {
      for (const step of steps) {
        h.clock.advance(1000);
        // The subscriber joins once its page exists.
        if (step.op.startsWith('DELETE /api/v1/pages/{slug}/subscribers')) await addSubscriber();
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

    async function addSubscriber(): Promise<void> {
      const page = await h.store.pages.findBySlug('audited');
      ids.subscriber = 'sub_audited';
      await h.store.subscribers.insert({
        id: 'sub_audited',
        organizationId: h.a.id,
        pageId: page?.id as string,
        kind: 'email',
        address: 'fan@example.com',
        secret: null,
        confirmTokenHash: null,
        unsubscribeToken: 'unsub-audited',
        confirmedAt: h.clock.now(),
        expiresAt: null,
        requestedBy: null,
        createdAt: h.clock.now(),
      });
    }
  });
}
