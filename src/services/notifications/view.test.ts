// A channel as each role reads it: secrets redacted for everyone; URLs cut to scheme and host for those who cannot edit
// channels, since an ntfy topic or a key in a webhook's path or query is a credential itself.
import { describe, expect, it } from 'vitest';
import type { NotificationChannel } from '../../domain/notification.js';
import { channelView, originOnly } from './view.js';

const channel = (type: string, config: Record<string, unknown>): NotificationChannel => ({
  id: 'nch_1',
  organizationId: 'org_1',
  key: 'ops',
  name: 'Ops',
  type,
  config,
  rules: {},
  enabled: true,
  managedBy: 'api',
  createdAt: 0,
  updatedAt: 0,
});

describe('a URL for those who cannot edit channels', () => {
  it.each([
    ['https://ntfy.sh/warden-alerts-7f3a', 'https://ntfy.sh/[redacted]'],
    ['https://hooks.example.com/in?key=s3cret', 'https://hooks.example.com/[redacted]'],
    ['https://example.com/hooks/T0/B0/XyZ#frag', 'https://example.com/[redacted]'],
    ['https://user:pass@ntfy.example.com', 'https://ntfy.example.com/[redacted]'],
    ['http://[::1]:8080/x', 'http://[::1]:8080/[redacted]'],
    ['https://api.telegram.org', 'https://api.telegram.org'],
    ['https://api.telegram.org/', 'https://api.telegram.org'],
    ['ops@acme.test', 'ops@acme.test'],
    ['smtp.acme.test', 'smtp.acme.test'],
  ])('%s reads %s', (url, seen) => {
    expect(originOnly(url)).toBe(seen);
  });
});

describe('a channel as each role reads it', () => {
  const ntfy = channel('ntfy', { url: 'https://ntfy.sh/warden-alerts-7f3a', token: 'tk_secret' });
  const webhook = channel('webhook', {
    url: 'https://hooks.example.com/in/4f9c?key=abc',
    secret: 'whsec_x',
    headers: { authorization: 'Bearer x' },
  });
  const discord = channel('discord', { url: 'https://discord.com/api/webhooks/1/tok' });
  const email = channel('email', {
    to: ['ops@acme.test'],
    from: 'warden@acme.test',
    host: 'smtp.acme.test',
    port: 587,
    username: 'warden',
    password: 'pw',
  });

  it('shows admins and owners the URLs whole, secrets redacted', () => {
    for (const role of ['admin', 'owner'] as const) {
      expect(channelView(ntfy, role).config).toEqual({
        url: 'https://ntfy.sh/warden-alerts-7f3a',
        token: '[redacted]',
      });
      expect(channelView(webhook, role).config).toEqual({
        url: 'https://hooks.example.com/in/4f9c?key=abc',
        secret: '[redacted]',
        headers: '[redacted]',
      });
    }
  });

  it('shows viewers and editors where each URL points, nothing of its path or query', () => {
    for (const role of ['viewer', 'editor'] as const) {
      expect(channelView(ntfy, role).config).toEqual({ url: 'https://ntfy.sh/[redacted]', token: '[redacted]' });
      expect(channelView(webhook, role).config).toEqual({
        url: 'https://hooks.example.com/[redacted]',
        secret: '[redacted]',
        headers: '[redacted]',
      });
      expect(channelView(discord, role).config).toEqual({ url: '[redacted]' });
      expect(channelView(email, role).config).toEqual({ ...email.config, password: '[redacted]' });
    }
  });
});
