// `warden import uptime-kuma`: what the status pages and notifications of a 1.23 and a 2.x database become.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKumaFixture, KUMA_FIXTURE_VERSIONS } from '../../../test/fixtures/uptime-kuma/kuma-fixture.js';
import { importKumaFixture } from '../../../test/fixtures/uptime-kuma/kuma-import.js';
import type { ImportReport } from './report.js';

for (const version of KUMA_FIXTURE_VERSIONS) {
  describe(`importing an Uptime Kuma ${version} database`, () => {
    const fixture = buildKumaFixture(version);
    afterAll(() => fixture.cleanup());
    let report: ImportReport;
    let monitors: Record<string, Record<string, unknown>>;
    const configOf = (key: string) => monitors[key]?.config as Record<string, unknown>;
    const approximated = (item: string) =>
      report.approximated.filter((n) => n.item.startsWith(item)).map((n) => n.reason);

    beforeAll(async () => {
      ({ report, monitors } = await importKumaFixture(fixture.file));
    });

    it('turns status pages into pages: sections as component groups, a group monitor as its monitors, incidents and maintenance', () => {
      const pages = report.file.pages as Record<string, unknown>[];
      const [status, internal] = pages;
      expect(status).toMatchObject({
        slug: 'status',
        title: 'Example Status',
        description: 'Everything we run',
        customDomain: 'status.example.com',
      });
      const components = ((status?.components ?? []) as Record<string, unknown>[]).map((c) => [
        c.name,
        c.group,
        c.monitor,
      ]);
      expect(components).toEqual([
        ['Website', 'Web', 'website'],
        ['Shop keyword', 'Web', 'shop-keyword'],
        ['API health', 'Web', 'api-health'],
        ...(version === '2.x' ? [['Status board', 'Web', undefined]] : []),
        ['Lobby', 'Game servers', 'lobby'],
        ['Bedrock', 'EU', 'bedrock'],
        ['CS2', 'EU', 'cs2'],
        ['Terraria', 'Game servers', 'terraria'],
        ['Proxy port', 'Infrastructure', 'proxy-port'],
        ['Nightly backup', 'Infrastructure', 'nightly-backup'],
      ]);
      expect(approximated('status page "status"').join('\n')).toContain(
        'monitor "Browser check" (id 17) was not imported and is left off the page',
      );
      expect(status?.incidents).toEqual([
        expect.objectContaining({
          title: 'Old outage',
          status: 'resolved',
          impact: 'major',
          startedAt: '2026-10-01T08:00:00Z',
          resolvedAt: '2026-10-02T09:30:00Z',
        }),
        expect.objectContaining({
          title: 'Lag spikes',
          status: 'investigating',
          impact: 'minor',
          startedAt: '2026-11-18T10:00:00Z',
        }),
      ]);
      expect(status?.maintenance).toEqual([
        // 02:00 to 04:00 in Berlin, in winter: UTC+1.
        {
          key: 'network-upgrade',
          title: 'Network upgrade',
          description: 'Core switches are replaced.',
          startsAt: '2026-12-01T01:00:00Z',
          endsAt: '2026-12-01T03:00:00Z',
          // Kuma's maintenance covers monitors: so does Warden's, wherever they are shown.
          monitors: ['lobby', 'bedrock'],
        },
        // Kuma's weekday strategy keeps a cron and a duration in seconds: a recurring window from the import on.
        {
          key: 'weekly-reboot',
          title: 'Weekly reboot',
          recurrence: [{ cron: '0 3 * * 1', timezone: 'UTC', durationMin: 30 }],
        },
        {
          key: 'emergency',
          title: 'Emergency',
          description: 'Unplanned work',
          startsAt: '2026-11-20T12:00:00Z',
          endsAt: '2026-11-21T12:00:00Z',
        },
      ]);
      expect(internal).toMatchObject({ slug: 'internal', title: 'Internal' });
      expect(approximated('status page "Internal"')).toEqual(
        expect.arrayContaining([
          expect.stringContaining('its slug became "internal"'),
          expect.stringContaining('unpublished in Kuma'),
        ]),
      );
    });

    it('carries Discord, Slack, SMTP, ntfy, Telegram and webhook notifications over, scoped to the monitors that used them', () => {
      const channels = Object.fromEntries(
        (report.file.notifications as Record<string, unknown>[]).map((c) => [c.key as string, c]),
      );
      expect(channels['ops-discord']).toMatchObject({
        type: 'discord',
        config: { url: 'https://discord.com/api/webhooks/123456789/${KUMA_OPS_DISCORD_URL_TOKEN}' },
        rules: { events: ['monitor.down', 'monitor.recovered'], monitors: ['website', 'lobby'] },
      });
      expect(channels['slack-alerts']).toMatchObject({
        type: 'slack',
        config: { url: 'https://hooks.slack.com/services/T000/B000/${KUMA_SLACK_ALERTS_URL_TOKEN}' },
      });
      expect(channels.mail).toMatchObject({
        type: 'email',
        config: {
          to: ['ops@example.com', 'boss@example.com'],
          host: 'smtp.example.com',
          port: 587,
          secure: 'starttls',
          username: 'kuma',
          password: '${KUMA_MAIL_SMTP_PASSWORD}',
          from: 'kuma@example.com',
        },
        rules: { monitors: ['nightly-backup'] },
      });
      expect(channels.ntfy).toMatchObject({
        type: 'ntfy',
        enabled: false,
        config: { url: 'https://ntfy.sh/acme-alerts', token: '${KUMA_NTFY_TOKEN}' },
      });
      expect(approximated('notification "Ops Discord"').join()).toContain('KUMA_OPS_DISCORD_URL_TOKEN');
      expect(channels.telegram).toMatchObject({
        type: 'telegram',
        config: { botToken: '${KUMA_TELEGRAM_BOT_TOKEN}', chatId: '-100123' },
        rules: { monitors: ['router-ping', 'lobby'] },
      });
      expect(channels.hook).toMatchObject({
        type: 'webhook',
        config: {
          url: 'https://hooks.example.com/kuma',
          secret: '${KUMA_HOOK_WEBHOOK_SECRET}',
          headers: { Authorization: '${KUMA_HOOK_HEADER_AUTHORIZATION}', 'X-Source': 'kuma' },
        },
        rules: { monitors: ['shop-keyword'] },
      });
      expect(approximated('notification "Hook"').join()).toContain(
        "Warden posts its own signed JSON event (Standard Webhooks, docs/notifications.md), not Kuma's json body",
      );
    });

    if (version === '2.x')
      it('reads 2.x’s JSON query operators and DNS conditions, reporting what Warden cannot compare', () => {
        expect(configOf('queue-depth')).toMatchObject({ jsonPath: 'depth' });
        expect(configOf('queue-depth').jsonExpected).toBeUndefined();
        expect(approximated('monitor "Queue depth"').join()).toContain(
          '"depth < 100" became a check that depth exists',
        );
        expect(configOf('apex-a-record')).toMatchObject({
          recordType: 'A',
          resolver: '1.1.1.1',
          expected: '93.184.216.34',
        });
        expect(approximated('monitor "Apex A record"').join()).toContain('Kuma asked 2 resolvers');
      });
  });
}
