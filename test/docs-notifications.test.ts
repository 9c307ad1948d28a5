// docs/notifications.md stays true: every channel type has a section with a warden.yaml example that loads as written
// (secrets from the environment), and the screenshots it shows exist.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../src/config/load.js';
import { CHANNEL_TYPES, channelDefinition } from '../src/notify/channels/registry.js';
import { TEMPLATE_FIELDS } from '../src/notify/templates/fields.js';

const DOC = readFileSync(join(process.cwd(), 'docs', 'notifications.md'), 'utf8');
const ENV = {
  DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1/token',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/x',
  TEAMS_WORKFLOW_URL: 'https://prod.westeurope.logic.azure.com/workflows/1/triggers/manual/paths/invoke',
  TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
  NTFY_TOKEN: 'tk_example',
  WARDEN_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
  HOOK_TOKEN: 'token',
  SMTP_PASSWORD: 'password',
  PUSHOVER_TOKEN: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
  PUSHOVER_USER: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  GOTIFY_TOKEN: 'AbCdEf1234567.8',
  MATRIX_TOKEN: 'syt_d2FyZGVu_abc',
  PAGERDUTY_ROUTING_KEY: 'R0123456789abcdef0123456789abcde',
  OPSGENIE_API_KEY: 'eb243592-faa2-4ba2-a551-1afdf565c889',
  TWILIO_AUTH_TOKEN: 'f00dfeed',
  MATTERMOST_WEBHOOK_URL: 'https://chat.example.com/hooks/xfa1k3y',
  ROCKETCHAT_WEBHOOK_URL: 'https://chat.example.com/hooks/6Fz9kQ/xT0k3nS3cr3t',
  GOOGLE_CHAT_WEBHOOK_URL: 'https://chat.googleapis.com/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D',
};

/** The part of the doc under a `### heading`, up to the next heading. */
function section(heading: string): string {
  const start = DOC.indexOf(`\n### ${heading}\n`);
  if (start === -1) return '';
  const next = DOC.slice(start + 1).search(/\n#{2,3} /);
  return next === -1 ? DOC.slice(start) : DOC.slice(start, start + 1 + next);
}

const HEADINGS: Record<(typeof CHANNEL_TYPES)[number], string> = {
  discord: 'Discord',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  telegram: 'Telegram',
  ntfy: 'ntfy',
  webhook: 'Webhook',
  email: 'Email',
  pushover: 'Pushover',
  gotify: 'Gotify',
  matrix: 'Matrix',
  pagerduty: 'PagerDuty',
  opsgenie: 'Opsgenie',
  twilio: 'SMS (Twilio)',
  mattermost: 'Mattermost',
  rocketchat: 'Rocket.Chat',
  googlechat: 'Google Chat',
};

describe('docs/notifications.md', () => {
  for (const type of CHANNEL_TYPES)
    it(`shows a ${type} channel in warden.yaml that loads`, () => {
      const text = section(HEADINGS[type]);
      const yaml = /```yaml\n([\s\S]*?)```/.exec(text)?.[1];
      expect(yaml, `a yaml example under "### ${HEADINGS[type]}"`).toBeDefined();
      const file = parseConfigText(`organization: { key: acme, name: Acme }\n${yaml}`, `docs ${type}`, ENV);
      expect(file.notifications.map((channel) => channel.type)).toEqual([type]);
    });

  it('shows screenshots that exist', () => {
    const images = [...DOC.matchAll(/!\[[^\]]+\]\((images\/[^)]+)\)/g)].map((m) => m[1] as string);
    expect(images).toEqual(
      expect.arrayContaining([
        'images/notify-discord.png',
        'images/notify-email.png',
        'images/notify-mattermost.png',
        'images/notify-rocketchat.png',
        'images/notify-googlechat.png',
        'images/notify-matrix.png',
        'images/notify-phones.png',
        'images/notify-pagers.png',
      ]),
    );
    for (const image of images) expect(existsSync(join(process.cwd(), 'docs', image)), image).toBe(true);
  });

  it("lists every channel's text limits as the channel declares them", () => {
    const start = DOC.indexOf('\n## Message templates\n');
    const text = DOC.slice(start, DOC.indexOf('\n## ', start + 1));
    for (const type of CHANNEL_TYPES) {
      const { title, body } = channelDefinition(type).textLimits;
      expect(text).toContain(`\n| ${HEADINGS[type]} | ${title ?? '—'} | ${body ?? '—'} |`);
    }
  });

  it('lists every message template field, with an example that loads', () => {
    const start = DOC.indexOf('\n## Message templates\n');
    const text = DOC.slice(start, DOC.indexOf('\n## ', start + 1));
    for (const field of TEMPLATE_FIELDS) expect(text).toContain(`| \`${field.name}\` |`);
    const yaml = /```yaml\n([\s\S]*?)```/.exec(text)?.[1];
    const file = parseConfigText(`organization: { key: acme, name: Acme }\n${yaml}`, 'docs templates', ENV);
    expect(file.notifications[0]?.config).toHaveProperty('template.body');
  });
});
