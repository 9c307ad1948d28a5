// Alerts through the API and the signed link in them: a monitor going down opens its alert, acknowledging it (an
// editor, or the button of the link in the alert and in its reminders) stops its reminders, shows who did it and
// when, and is in the audit log; a link that is forged, expired or merely opened acknowledges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const MIN = 60_000;

interface Delivered {
  kind: string;
  title: string;
  alert?: { id: string; acknowledgeUrl: string | null };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`alerts and their acknowledgement on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    const delivered = () => receiver.requests.map((r) => (r.json as { data: Delivered }).data);
    const send = async () => {
      await h.dispatcher.tick();
      await h.dispatcher.tick();
    };
    const down = async (key: string) => {
      const res = await h.call('POST', '/api/v1/monitors', {
        body: { key, name: key, type: 'tcp', retries: 0, config: { host: '127.0.0.1', port: 1 } },
      });
      expect(res.status).toBe(201);
      const monitor = (await res.json()) as { id: string };
      await h.ingest.record({ monitorId: monitor.id, ok: false, error: 'connection refused', source: 'edge' });
      const find = () => delivered().find((d) => d.kind === 'monitor.down' && d.title === `${key} is down`)?.alert;
      // Each tick sends what is due per lane: on a loaded machine the down alert may need a few.
      for (let i = 0; i < 20 && !find(); i++) {
        await send();
        if (!find()) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const alert = find();
      if (!alert?.acknowledgeUrl) throw new Error(`no alert with a link for ${key}`);
      return { monitorId: monitor.id, alertId: alert.id, link: alert.acknowledgeUrl.slice(BASE_URL.length) };
    };

    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      receiver = await startReceiver({ status: 204 });
      const channel = { key: 'oncall', name: 'On call', type: 'webhook', rules: { remindEveryMin: 5 } };
      const res = await h.call('POST', '/api/v1/notification-channels', {
        body: { ...channel, config: { url: `${receiver.url}/oncall`, secret: SECRET } },
      });
      expect(res.status).toBe(201);
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });

    it('opens an alert when a monitor goes down, and an editor acknowledges it: its reminders stop', async () => {
      const { alertId } = await down('gate');
      const open = await (await h.call('GET', '/api/v1/alerts?state=open', { key: h.a.readKey })).json();
      expect(open.alerts.map((a: { id: string; monitor: { key: string } }) => [a.id, a.monitor.key])).toContainEqual([
        alertId,
        'gate',
      ]);
      h.clock.advance(6 * MIN);
      expect(await h.reminders.sweep()).toBe(1);

      expect(
        (await h.call('POST', `/api/v1/alerts/${alertId}/acknowledge`, { key: h.a.readKey, body: {} })).status,
      ).toBe(403);
      expect(
        (await h.call('POST', `/api/v1/alerts/${alertId}/acknowledge`, { key: h.b.writeKey, body: {} })).status,
      ).toBe(404);
      const acked = await h.call('POST', `/api/v1/alerts/${alertId}/acknowledge`, { body: { note: 'on it' } });
      expect(acked.status).toBe(200);
      const at = h.clock.now();
      expect((await acked.json()).acknowledged).toEqual({ at, by: 'write', note: 'on it' });
      // Shown to everyone who reads it (a viewer's key too), and acknowledged once.
      const read = await (await h.call('GET', `/api/v1/alerts/${alertId}`, { key: h.a.readKey })).json();
      expect(read).toMatchObject({ state: 'open', acknowledged: { at, by: 'write', note: 'on it' } });
      const again = await h.call('POST', `/api/v1/alerts/${alertId}/acknowledge`, { body: {} });
      expect(again.status).toBe(409);
      expect(again.headers.get('content-type')).toContain('application/problem+json');

      h.clock.advance(10 * MIN);
      expect(await h.reminders.sweep()).toBe(0);
      const audit = await (await h.call('GET', '/api/v1/audit')).json();
      expect(
        audit.entries
          .filter((e: { action: string }) => e.action === 'alert.acknowledge')
          .map((e: { object: { id: string; label: string } }) => [e.object.id, e.object.label]),
      ).toEqual([[alertId, 'gate']]);
    });

    it('resolves the alert when the monitor is back up', async () => {
      const { monitorId, alertId } = await down('door');
      h.clock.advance(MIN);
      await h.ingest.record({ monitorId, ok: true, source: 'edge' });
      const read = await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json();
      expect(read).toMatchObject({ state: 'resolved', resolvedAt: h.clock.now(), acknowledged: null });
      const resolved = await (await h.call('GET', '/api/v1/alerts?state=resolved')).json();
      expect(resolved.alerts.map((a: { id: string }) => a.id)).toContain(alertId);
      expect((await h.call('POST', `/api/v1/alerts/${alertId}/acknowledge`, { body: {} })).status).toBe(409);
    });

    it('acknowledges by the link in the alert only when its button is pressed, and refuses a forged one', async () => {
      const { alertId, link } = await down('hall');
      const page = await h.app.request(link);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Acknowledge this alert?');
      expect(html).toContain('<form method="post"');
      // Opening it (a mail scanner does) changed nothing.
      const before = await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json();
      expect(before.acknowledged).toBeNull();

      const forged = link.replace(/sig=[^&]+/, 'sig=AAAA');
      expect((await h.app.request(forged)).status).toBe(403);
      expect((await h.app.request(forged, { method: 'POST' })).status).toBe(403);
      // The signature binds the alert: another alert's id under this signature is forged too.
      expect((await h.app.request(link.replace(alertId, 'alr_someoneelse0000000'), { method: 'POST' })).status).toBe(
        403,
      );
      expect((await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json()).acknowledged).toBeNull();

      const pressed = await h.app.request(link, { method: 'POST' });
      expect(pressed.status).toBe(200);
      expect(await pressed.text()).toContain('Acknowledged');
      const after = await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json();
      expect(after.acknowledged).toMatchObject({ by: 'link', at: h.clock.now() });
      const audit = await (await h.call('GET', '/api/v1/audit')).json();
      expect(audit.entries.find((e: { object: { id: string } }) => e.object.id === alertId)).toMatchObject({
        action: 'alert.acknowledge',
        actor: { kind: 'system', name: 'link' },
      });
    });

    it("puts the alert's ack link in each reminder too, and that link acknowledges it", async () => {
      const { alertId } = await down('cellar');
      const reminders = () =>
        delivered().filter((d) => d.kind === 'monitor.reminder' && d.title.startsWith('cellar is still down'));
      h.clock.advance(6 * MIN);
      expect(await h.reminders.sweep()).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 20 && reminders().length === 0; i++) await send();
      const [reminder] = reminders();
      expect(reminder?.title).toBe('cellar is still down (for 5 min)');
      expect(reminder?.alert?.id).toBe(alertId);
      const link = reminder?.alert?.acknowledgeUrl ?? '';
      expect(link.startsWith(`${BASE_URL}/alerts/acknowledge?alert=${alertId}&expires=`)).toBe(true);

      expect((await h.app.request(link.slice(BASE_URL.length), { method: 'POST' })).status).toBe(200);
      const after = await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json();
      expect(after.acknowledged).toMatchObject({ by: 'link', at: h.clock.now() });
      h.clock.advance(10 * MIN);
      await h.reminders.sweep();
      await send();
      expect(reminders()).toHaveLength(1);
    });

    it('refuses an expired link', async () => {
      const { alertId, link } = await down('yard');
      h.clock.advance(8 * 24 * 60 * MIN);
      expect((await h.app.request(link)).status).toBe(410);
      expect((await h.app.request(link, { method: 'POST' })).status).toBe(410);
      expect((await (await h.call('GET', `/api/v1/alerts/${alertId}`)).json()).acknowledged).toBeNull();
    });
  });
}
