import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { BARE_EVENT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import { opsgenieChannel } from './opsgenie.js';

const KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889';
const ACCEPTED = { status: 202, body: '{"result":"Request will be processed","took":0.107,"requestId":"43a2"}' };
const harness = channelHarness(opsgenieChannel, (origin) => ({ apiKey: KEY, apiUrl: `${origin}/` }), ACCEPTED);

describe('opsgenie channel', () => {
  itHonoursTheReceiver(
    harness,
    DOWN_EVENT,
    { status: 422, body: '{"message":"Request body is not processable","took":0.0,"requestId":"x"}' },
    { retryAfter: 5 },
  );

  it('a down monitor: an alert created under the monitor’s alias, with the GenieKey', async () => {
    const { outcome, request } = await harness.send(DOWN_EVENT);
    expect(outcome).toMatchObject({ kind: 'sent', status: 202 });
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v2/alerts',
      headers: { authorization: `GenieKey ${KEY}`, 'content-type': 'application/json' },
    });
    expect(request.json).toEqual({
      message: 'Lobby is down',
      alias: 'warden:acme:monitor:mon_1',
      description: [
        'Lobby is down',
        'connection refused <127.0.0.1:25565> & retried',
        '',
        'Monitor: Lobby',
        'Page: Acme status (https://status.acme.test/main)',
        '',
        'Acme Games · 2025-03-01 14:05 UTC',
      ].join('\n'),
      priority: 'P1',
      source: 'Warden',
      entity: 'Lobby',
      tags: ['warden', 'monitor.down'],
      details: {
        event: 'evt_down_1',
        kind: 'monitor.down',
        organization: 'Acme Games',
        reason: 'connection refused <127.0.0.1:25565> & retried',
        Monitor: 'Lobby',
        Page: 'Acme status (https://status.acme.test/main)',
      },
    });
  });

  it('its recovery closes the alert by the same alias', async () => {
    const { outcome, request } = await harness.send(RECOVERED_EVENT);
    expect(outcome).toMatchObject({ kind: 'sent', status: 202 });
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v2/alerts/warden%3Aacme%3Amonitor%3Amon_1/close?identifierType=alias',
      headers: { authorization: `GenieKey ${KEY}` },
    });
    expect(request.json).toEqual({ source: 'Warden', note: 'Lobby is back up after 4 min' });
  });

  it('priorities by severity; an incident is P3 under its id, and a test P5 alone', async () => {
    expect((await harness.send(INCIDENT_EVENT)).request.json).toMatchObject({
      alias: 'warden:acme:incident:inc_1',
      priority: 'P3',
      entity: 'Login queue delays',
    });
    const test = (await harness.send(BARE_EVENT)).request.json as Record<string, unknown>;
    expect(test).toMatchObject({ alias: 'warden:acme:test:evt_test_1', priority: 'P5', message: BARE_EVENT.title });
    expect(test).not.toHaveProperty('entity');
  });

  it('a long title is cut to the 130 characters of a message', async () => {
    const { request } = await harness.send({ ...DOWN_EVENT, title: 'x'.repeat(200) });
    expect((request.json as { message: string }).message).toBe(`${'x'.repeat(129)}…`);
  });

  it('goes to the region’s API unless apiUrl says otherwise; validates its config', () => {
    const parse = (config: unknown) => opsgenieChannel.config.safeParse(config);
    expect(parse({ apiKey: KEY }).data).toEqual({ apiKey: KEY, region: 'us' });
    expect(parse({ apiKey: KEY, region: 'eu' }).data).toEqual({ apiKey: KEY, region: 'eu' });
    expect(parse({ apiKey: KEY, region: 'ap' }).error?.issues[0]?.message).toMatch(/us or eu/);
    expect(parse({ apiKey: '' }).error?.issues[0]?.message).toMatch(/must not be empty/);
    expect(opsgenieChannel.secrets).toEqual(['apiKey']);
    expect(opsgenieChannel.targets).toEqual(['region', 'apiUrl']);
  });
});
