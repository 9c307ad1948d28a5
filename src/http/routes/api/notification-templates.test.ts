// Message templates through the API: checked on create and change (400 naming the field and the line), used by the
// channel's sends, and previewed over a sample event of every kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';
import { NOTIFICATION_KINDS } from '../../../notify/channels/channel.js';

const BASE = '/api/v1/notification-channels';
const PREVIEW = `${BASE}/preview-template`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`message templates API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      receiver = await startReceiver({ status: 204 });
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });
    const discord = (key: string, template: unknown) => ({
      key,
      name: key,
      type: 'discord',
      config: { url: `${receiver.url}/api/webhooks/1/${key}`, template },
    });

    it('refuses a template that does not check, naming the field and the line, on create and on change', async () => {
      const created = await h.call('POST', BASE, { body: discord('bad', { title: '{{title}}', body: 'a\n{{> x}}' }) });
      expect(created.status).toBe(400);
      expect((await created.json()).errors).toEqual([
        { path: 'body.config.template.body', message: expect.stringMatching(/^body template, line 2: partials/) },
      ]);
      expect(
        (await h.call('POST', BASE, { body: discord('good', { title: '{{kindLabel}}: {{title}}' }) })).status,
      ).toBe(201);
      const changed = await h.call('PATCH', `${BASE}/good`, { body: { config: { template: { title: '{{nope}}' } } } });
      expect(changed.status).toBe(400);
      expect(JSON.stringify(await changed.json())).toMatch(/template\.title.*line 1: unknown field \\"nope\\"/);
    });

    it('sends what the template renders', async () => {
      await h.call('POST', BASE, { body: discord('sends', { title: '{{kindLabel}} · {{organization.name}}' }) });
      receiver.requests.length = 0;
      const res = await h.call('POST', `${BASE}/sends/test`);
      expect(await res.json()).toMatchObject({ outcome: 'sent' });
      const { embeds } = receiver.requests[0]!.json as { embeds: { title: string }[] };
      expect(embeds[0]!.title).toMatch(/^Test · /);
      const read = await (await h.call('GET', `${BASE}/sends`)).json();
      expect(read.config.template).toEqual({ title: '{{kindLabel}} · {{organization.name}}' });
    });

    it('previews a template over a sample event of every kind, with the fields and limits', async () => {
      const res = await h.call('POST', PREVIEW, {
        body: {
          type: 'slack',
          template: { title: '{{kindLabel}}: {{monitor.name}}', body: '{{#incident}}{{status}}{{/incident}}' },
        },
      });
      expect(res.status).toBe(200);
      const preview = await res.json();
      expect(preview.samples.map((s: { kind: string }) => s.kind)).toEqual([...NOTIFICATION_KINDS]);
      expect(preview.samples[0]).toEqual({
        kind: 'monitor.down',
        label: 'Monitor down',
        title: 'Monitor down: Lobby',
        body: '',
        clipped: { title: false, body: false },
      });
      expect(preview.samples.find((s: { kind: string }) => s.kind === 'incident.updated').body).toBe('identified');
      expect(preview.fields).toContainEqual(expect.objectContaining({ name: 'monitor.name' }));
      expect(preview.limits).toEqual({ title: 250, body: 4000 });
      const plain = await (await h.call('POST', PREVIEW, { body: { type: 'ntfy', template: {} } })).json();
      expect(plain.samples[0]).toMatchObject({
        title: 'Lobby is down',
        body: expect.stringMatching(/^connect ECONNREFUSED/),
      });
    });

    it("previews what a channel would send, cut to that channel's own limits, and says what was cut", async () => {
      const title = `{{kindLabel}}: ${'x'.repeat(400)}`;
      const res = await h.call('POST', PREVIEW, {
        body: { type: 'pushover', template: { title, body: 'y'.repeat(1500) } },
      });
      expect(res.status).toBe(200);
      const preview = await res.json();
      expect(preview.channel).toEqual({ type: 'pushover', label: 'Pushover', limits: { title: 250, body: 1024 } });
      const down = preview.samples[0];
      expect(down.title).toBe(`Monitor down: ${'x'.repeat(235)}…`);
      expect(Array.from(down.title as string)).toHaveLength(250);
      expect(Array.from(down.body as string)).toHaveLength(1024);
      expect(down.clipped).toEqual({ title: true, body: true });
      const short = await (await h.call('POST', PREVIEW, { body: { type: 'pushover', template: {} } })).json();
      expect(short.samples[0]).toMatchObject({ title: 'Lobby is down', clipped: { title: false, body: false } });
      const sms = await (await h.call('POST', PREVIEW, { body: { type: 'twilio', template: { title } } })).json();
      expect(sms.samples[0]).toMatchObject({ title: '', clipped: { title: true, body: true } });
      expect(sms.samples[0].body).toMatch(
        /^\[Acme\] Monitor down: x+…: connect \.\.\. https:\/\/status\.example\.com\/s\/status$/,
      );
      expect(Array.from(sms.samples[0].body as string)).toHaveLength(306);
      const plain = await (await h.call('POST', PREVIEW, { body: { template: { title } } })).json();
      expect(plain.samples[0]).toMatchObject({ title: `Monitor down: ${'x'.repeat(235)}…`, clipped: { title: true } });
      expect(plain).not.toHaveProperty('channel');
    });

    it('answers 400 naming `type` for a channel type there is none of', async () => {
      const res = await h.call('POST', PREVIEW, { body: { type: 'carrier-pigeon', template: {} } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await res.json()).errors).toEqual([
        { path: 'body.type', message: expect.stringMatching(/^expected one of webhook, discord, .*pushover/) },
      ]);
    });

    it('answers 400 for a preview that does not check, and a read key may not preview', async () => {
      const bad = await h.call('POST', PREVIEW, { body: { type: 'slack', template: { body: 'x\ny\n{{#monitor}}' } } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).errors).toEqual([
        { path: 'body.template.body', message: 'body template, line 3: Unclosed section "monitor"' },
      ]);
      expect((await h.call('POST', PREVIEW, { body: { type: 'nope', template: {} } })).status).toBe(400);
      expect((await h.call('POST', PREVIEW, { key: h.a.readKey, body: { type: 'ntfy', template: {} } })).status).toBe(
        403,
      );
    });
  });
}
