// The system SMTP server on a self-hosted server (one organization on the database): a channel made through the API
// without a host of its own mails at once, no confirmation asked, still from WARDEN_SMTP_FROM (issue 32, item 2; the
// tenants' case is hardening-smtp-tenants.test.ts).
import { describe, expect, it } from 'vitest';
import { startSmtpFake } from '../fakes/smtp-server.js';
import { startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { SPOOFING_CHANNEL } from './hardening-smtp-harness.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`mail through the system SMTP server on ${dialect.name}`, () => {
    it('mails at once while the database holds one organization (a self-hosted server), still from WARDEN_SMTP_FROM', async () => {
      const own = await startSmtpFake();
      const single = await startSeededWarden(dialect, 'organization: { key: home, name: Home }', {
        WARDEN_SMTP_URL: `smtp://127.0.0.1:${own.port}?secure=none`,
        WARDEN_SMTP_FROM: 'status@operator.test',
      });
      try {
        const call = (method: string, path: string, body?: unknown) =>
          fetch(`${single.url}${path}`, {
            method,
            headers: { authorization: `Bearer ${single.writeKey}`, 'content-type': 'application/json' },
            ...(body ? { body: JSON.stringify(body) } : {}),
          });
        expect((await call('POST', '/api/v1/notification-channels', { ...SPOOFING_CHANNEL, key: 'mine' })).status).toBe(
          201,
        );
        expect(await (await call('GET', '/api/v1/notification-channels/mine/recipients')).json()).toEqual({
          confirmation: 'not-required',
          recipients: [],
        });
        expect(await (await call('POST', '/api/v1/notification-channels/mine/test')).json()).toMatchObject({
          outcome: 'sent',
        });
        await expect.poll(() => own.messages.length).toBe(1);
        expect(own.messages[0]).toMatchObject({
          from: 'status@operator.test',
          to: ['victim@example.test', 'colleague@example.test'],
        });
        expect((await own.messages[0]!.parse()).replyTo?.text).toContain('security@operator.test');
      } finally {
        await single.close();
        await own.close();
      }
    });
  });
}
