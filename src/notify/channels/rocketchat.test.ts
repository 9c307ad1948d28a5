import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { chatAttachment } from './attachment.js';
import type { NotificationEvent } from './channel.js';
import { rocketChatChannel } from './rocketchat.js';

const path = '/hooks/6Fz9kQ/xT0k3nS3cr3t';
const harness = channelHarness(rocketChatChannel, (origin) => ({ url: `${origin}${path}` }), {
  status: 200,
  body: '{"success":true}',
});

async function deliver(event: NotificationEvent) {
  const { outcome, request } = await harness.send(event);
  expect(outcome).toEqual({ kind: 'sent', status: 200, answer: '{"success":true}' });
  expect(request).toMatchObject({ method: 'POST', path, headers: { 'content-type': 'application/json' } });
  return request.json as { text: string; attachments: Record<string, unknown>[] };
}

const page = { title: 'Page', value: '[Acme status](https://status.acme.test/main)', short: true };

describe('rocket.chat channel', () => {
  itHonoursTheReceiver(harness, DOWN_EVENT, {
    status: 400,
    body: '{"success":false,"error":"Invalid integration id or token provided."}',
  });

  it('a down monitor: the headline as text, one red attachment with the reason, facts, organization and time', async () => {
    expect(await deliver(DOWN_EVENT)).toEqual({
      alias: 'Warden',
      emoji: ':bell:',
      text: '🔴 Lobby is down',
      attachments: [
        {
          color: '#e74c3c',
          title: 'Lobby is down',
          title_link: 'https://status.acme.test/main',
          text: 'connection refused <127.0.0.1:25565\\> & retried',
          fields: [{ title: 'Monitor', value: 'Lobby', short: true }, page],
          author_name: 'Acme Games',
          ts: '2025-03-01T14:05:00.000Z',
        },
      ],
    });
  });

  it('a recovery: green, the attachment Mattermost gets too (downtime, players)', async () => {
    const body = await deliver(RECOVERED_EVENT);
    expect(body.text).toBe('✅ Lobby is back up after 4 min');
    expect(body.attachments[0]).toMatchObject({ ...chatAttachment(RECOVERED_EVENT), color: '#2ecc71' });
  });

  it('an incident: orange; a name cannot ping @all', async () => {
    const body = await deliver({ ...INCIDENT_EVENT, title: 'Incident: @all logins_slow' });
    expect(body.text).toBe('🟠 Incident: @\u200ball logins\\_slow');
    expect(body.attachments[0]).toMatchObject({ color: '#f39c12', text: 'We are looking into slow logins.' });
  });

  it('an event with nothing optional', async () => {
    const body = await deliver(BARE_EVENT);
    expect(body.text).toBe('🔵 Test notification from Warden');
    expect(body.attachments[0]).toEqual({
      color: '#3498db',
      title: 'Test notification from Warden',
      fields: [],
      author_name: 'Acme Games',
      ts: '2025-03-01T14:05:00.000Z',
    });
  });
});
