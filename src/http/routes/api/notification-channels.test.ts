import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { WardenEvent } from '../../../bus/events.js';
import { CHANNEL_TYPES } from '../../../notify/channels/registry.js';
import { signatureHeaders } from '../../../notify/channels/webhook.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const BASE = '/api/v1/notification-channels';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`notification channel API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    const changed: WardenEvent[] = [];
    const webhook = (key: string, url = 'http://127.0.0.1:9/hook') => ({
      key,
      name: `Hook ${key}`,
      type: 'webhook',
      config: { url, secret: SECRET },
    });
    beforeAll(async () => {
      // The receiver listens on loopback: these organizations may reach it (test/e2e/hardening-channels covers `deny`).
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      receiver = await startReceiver({ status: 204 });
      h.context.bus.subscribe('notifications.changed', (e) => void changed.push(e));
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });

    it('creates, lists, reads, changes and deletes a channel, secrets redacted, and announces each write', async () => {
      const created = await h.call('POST', BASE, {
        body: { ...webhook('ops', `${receiver.url}/hook`), rules: { events: ['monitor.down'], monitors: ['lobby'] } },
      });
      expect(created.status).toBe(201);
      const channel = await created.json();
      expect(channel).toMatchObject({
        key: 'ops',
        type: 'webhook',
        enabled: true,
        managedBy: 'api',
        config: { url: `${receiver.url}/hook`, secret: '[redacted]' },
        rules: { events: ['monitor.down'], monitors: ['lobby'] },
      });
      expect(changed).toContainEqual({ type: 'notifications.changed', at: T0, organizationId: h.a.id });
      const { channels } = await (await h.call('GET', BASE, { key: h.a.readKey })).json();
      expect(channels.map((c: { key: string }) => c.key)).toEqual(['ops']);
      expect(await (await h.call('GET', `${BASE}/ops`, { key: h.a.writeKey })).json()).toEqual(channel);
      // A read key (a viewer) cannot edit channels: it sees where the URL points, not its path.
      expect(await (await h.call('GET', `${BASE}/ops`, { key: h.a.readKey })).json()).toEqual({
        ...channel,
        config: { url: `${receiver.url}/[redacted]`, secret: '[redacted]' },
      });
      const patched = await h.call('PATCH', `${BASE}/ops`, {
        body: { name: 'Ops', enabled: false, config: { secret: '[redacted]' }, rules: {} },
      });
      expect(patched.status).toBe(200);
      expect(await patched.json()).toMatchObject({
        name: 'Ops',
        enabled: false,
        rules: {},
        config: { secret: '[redacted]' },
      });
      expect((await h.store.channels.findByKey(h.a.id, 'ops'))?.config.secret).toBe(SECRET);
      expect((await h.call('POST', BASE, { body: webhook('ops') })).status).toBe(409);
      const before = changed.length;
      expect((await h.call('DELETE', `${BASE}/ops`)).status).toBe(204);
      expect(changed.length).toBe(before + 1);
      expect((await h.call('GET', `${BASE}/ops`)).status).toBe(404);
    });

    it.each([
      [{ ...webhook('bad'), type: 'pager' }, 'body.type'],
      [{ ...webhook('bad'), config: { url: 'ftp://x', secret: SECRET } }, 'body.config.url'],
      [{ ...webhook('bad'), config: { url: 'http://127.0.0.1:1/', secret: 'nope' } }, 'body.config.secret'],
      [{ ...webhook('bad'), rules: { events: ['monitor.exploded'] } }, 'body.rules.events[0]'],
      [{ ...webhook('Bad Key') }, 'body.key'],
    ])('answers 400 naming the wrong field (%#)', async (body, path) => {
      const res = await h.call('POST', BASE, { body });
      expect(res.status).toBe(400);
      expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
    });

    it('keeps a "[redacted]" secret only while the target stays; a new URL needs the secret again', async () => {
      await h.call('POST', BASE, { body: webhook('moving', 'http://127.0.0.1:8/hook') });
      const moved = await h.call('PATCH', `${BASE}/moving`, {
        body: { config: { url: 'http://127.0.0.1:9/elsewhere', secret: '[redacted]' } },
      });
      expect(moved.status).toBe(400);
      expect((await moved.json()).errors).toEqual([expect.objectContaining({ path: 'body.config.secret' })]);
      const omitted = await h.call('PATCH', `${BASE}/moving`, {
        body: { config: { url: 'http://127.0.0.1:9/elsewhere' } },
      });
      expect(omitted.status).toBe(400);
      const resent = await h.call('PATCH', `${BASE}/moving`, {
        body: { config: { url: 'http://127.0.0.1:9/elsewhere', secret: OTHER_SECRET } },
      });
      expect(resent.status).toBe(200);
      expect((await h.store.channels.findByKey(h.a.id, 'moving'))?.config).toEqual({
        url: 'http://127.0.0.1:9/elsewhere',
        secret: OTHER_SECRET,
      });
      const invalid = await h.call('PATCH', `${BASE}/moving`, { body: { config: { url: 'not a url' } } });
      expect((await invalid.json()).errors.map((e: { path: string }) => e.path)).toContain('body.config.url');
    });

    it("generates a webhook's signing secret when the body leaves it out, and shows it this once", async () => {
      const { config, ...body } = webhook('generated', `${receiver.url}/generated`);
      const created = await h.call('POST', BASE, { body: { ...body, config: { url: config.url } } });
      expect(created.status).toBe(201);
      const answer = await created.json();
      expect(answer).toMatchObject({ key: 'generated', config: { secret: '[redacted]' } });
      expect(answer.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect((await h.store.channels.findByKey(h.a.id, 'generated'))?.config.secret).toBe(answer.secret);
      // Never again: not in a read, nor in the list.
      const read = await (await h.call('GET', `${BASE}/generated`)).json();
      expect(read).not.toHaveProperty('secret');
      expect(JSON.stringify(read)).not.toContain('whsec_');
      expect(JSON.stringify(await (await h.call('GET', BASE)).json())).not.toContain('whsec_');
      // A receiver verifies what the channel sends with it.
      expect((await (await h.call('POST', `${BASE}/generated/test`)).json()).outcome).toBe('sent');
      const request = receiver.requests.at(-1);
      expect(request?.path).toBe('/generated');
      const [id, timestamp] = [String(request?.headers['webhook-id']), Number(request?.headers['webhook-timestamp'])];
      expect(request?.headers['webhook-signature']).toBe(
        signatureHeaders(answer.secret, id, timestamp, request?.raw ?? '')['webhook-signature'],
      );
      // A secret the body sets is not repeated back.
      const given = await (await h.call('POST', BASE, { body: webhook('given') })).json();
      expect(given).not.toHaveProperty('secret');
    });

    it("issues a webhook channel a new signing secret, shown once; not another type's, nor the file's", async () => {
      await h.call('POST', BASE, { body: webhook('rotated') });
      const res = await h.call('POST', `${BASE}/rotated/secret`);
      expect(res.status).toBe(200);
      const answer = await res.json();
      expect(answer).toMatchObject({ key: 'rotated', config: { secret: '[redacted]' } });
      expect(answer.secret).toMatch(/^whsec_/);
      expect(answer.secret).not.toBe(SECRET);
      expect((await h.store.channels.findByKey(h.a.id, 'rotated'))?.config.secret).toBe(answer.secret);
      expect(JSON.stringify(await (await h.call('GET', `${BASE}/rotated`)).json())).not.toContain('whsec_');
      expect((await h.call('POST', `${BASE}/rotated/secret`, { key: h.a.readKey })).status).toBe(403);
      const discord = {
        key: 'chat',
        name: 'Chat',
        type: 'discord',
        config: { url: 'https://discord.com/api/webhooks/1/a' },
      };
      await h.call('POST', BASE, { body: discord });
      expect((await h.call('POST', `${BASE}/chat/secret`)).status).toBe(409);
      expect((await h.call('POST', `${BASE}/missing/secret`)).status).toBe(404);
    });

    it("addresses a channel by its id too; never another organization's", async () => {
      const channel = await (await h.call('POST', BASE, { body: webhook('by-id') })).json();
      expect(await (await h.call('GET', `${BASE}/${channel.id}`)).json()).toMatchObject({ key: 'by-id' });
      expect(
        await (await h.call('PATCH', `${BASE}/${channel.id}`, { body: { name: 'Renamed' } })).json(),
      ).toMatchObject({ key: 'by-id', name: 'Renamed' });
      expect((await h.call('GET', `${BASE}/${channel.id}`, { key: h.b.writeKey })).status).toBe(404);
      expect((await h.call('DELETE', `${BASE}/${channel.id}`)).status).toBe(204);
      expect((await h.call('GET', `${BASE}/by-id`)).status).toBe(404);
    });

    it("answers 404 for another organization's channel, and a read key cannot write", async () => {
      await h.call('POST', BASE, { body: webhook('private') });
      for (const [method, path] of [
        ['GET', `${BASE}/private`],
        ['PATCH', `${BASE}/private`],
        ['DELETE', `${BASE}/private`],
        ['POST', `${BASE}/private/test`],
        ['GET', `${BASE}/private/deliveries`],
      ] as const)
        expect(
          (await h.call(method, path, { key: h.b.writeKey, body: method === 'PATCH' ? { name: 'Mine' } : undefined }))
            .status,
        ).toBe(404);
      expect((await (await h.call('GET', BASE, { key: h.b.readKey })).json()).channels).toEqual([]);
      expect((await h.call('POST', BASE, { key: h.a.readKey, body: webhook('nope') })).status).toBe(403);
    });

    it('sends a test to the receiver now and records it in the deliveries; a refused one is recorded dead', async () => {
      await h.call('POST', BASE, { body: webhook('tested', `${receiver.url}/hook`) });
      const sent = receiver.requests.length;
      const res = await h.call('POST', `${BASE}/tested/test`);
      expect(res.status).toBe(200);
      const result = await res.json();
      expect(result).toMatchObject({
        outcome: 'sent',
        delivery: { kind: 'test', status: 'sent', attempts: 1, lastStatus: 204, lastFailure: null },
      });
      expect(receiver.requests.length).toBe(sent + 1);
      const request = receiver.requests.at(-1);
      expect(request?.path).toBe('/hook');
      expect(request?.headers['webhook-id']).toBe(result.delivery.eventId);
      expect(request?.json).toMatchObject({ type: 'test', data: { kind: 'test', organization: { key: 'alpha' } } });

      h.clock.advance(1000);
      receiver.answer({ status: 410, body: 'gone' });
      const refused = await (await h.call('POST', `${BASE}/tested/test`)).json();
      receiver.answer({ status: 204 });
      expect(refused).toMatchObject({
        outcome: 'failed',
        delivery: { status: 'dead', lastStatus: 410, lastAnswer: 'gone', lastError: 'HTTP 410', lastFailure: 'status' },
      });

      const { deliveries } = await (await h.call('GET', `${BASE}/tested/deliveries?limit=1`)).json();
      expect(deliveries).toEqual([refused.delivery]);
      // The receivers' answers may show where a channel points: admins (and write keys) only.
      expect((await h.call('GET', `${BASE}/tested/deliveries`, { key: h.a.readKey })).status).toBe(403);
      const all = await (await h.call('GET', `${BASE}/tested/deliveries`)).json();
      expect(all.deliveries.map((d: { status: string }) => d.status)).toEqual(['dead', 'sent']);
      expect((await h.call('GET', `${BASE}/tested/deliveries?limit=0`)).status).toBe(400);
    });

    it('describes each channel type for forms: label, secret and target fields, and the JSON Schema of its config and of the rules', async () => {
      const res = await h.call('GET', '/api/v1/notification-channel-types', { key: h.a.readKey });
      expect(res.status).toBe(200);
      const { types, rules, events } = await res.json();
      expect(types.map((t: { id: string }) => t.id)).toEqual([...CHANNEL_TYPES]);
      expect(CHANNEL_TYPES.slice(0, 7)).toEqual(['webhook', 'discord', 'slack', 'teams', 'telegram', 'ntfy', 'email']);
      const telegram = types.find((t: { id: string }) => t.id === 'telegram');
      expect(telegram).toMatchObject({ label: 'Telegram', secrets: ['botToken'], targets: ['apiBaseUrl', 'chatId'] });
      expect(telegram.config).toMatchObject({
        type: 'object',
        required: ['botToken', 'chatId'],
        properties: { apiBaseUrl: { default: 'https://api.telegram.org' } },
      });
      expect(types.find((t: { id: string }) => t.id === 'email').config.properties.secure).toMatchObject({
        enum: ['tls', 'starttls', 'none'],
        default: 'starttls',
      });
      expect(rules.properties.events.items.enum).toContain('monitor.down');
      // A webhook's secret is generated when left out; the others' secrets are not.
      const hook = types.find((t: { id: string }) => t.id === 'webhook');
      expect(hook).toMatchObject({ generated: ['secret'], config: { required: ['url'] } });
      expect(telegram.generated).toEqual([]);
      // Every kind the rules take, named for a form.
      expect(events.map((e: { kind: string }) => e.kind)).toEqual(rules.properties.events.items.enum);
      expect(events[0]).toEqual({ kind: 'monitor.down', label: 'Monitor goes down', description: expect.any(String) });
      expect(rules.properties.holdSec).toMatchObject({ type: 'integer', minimum: 0, maximum: 86400 });
    });
  });
}
