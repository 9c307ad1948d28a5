import { describe, expect, it } from 'vitest';
import { channelHarness, itHonoursTheReceiver } from '../../../test/fakes/channel-harness.js';
import { AT, DOWN_EVENT, INCIDENT_EVENT, RECOVERED_EVENT } from '../../../test/fakes/notify-receivers.js';
import type { NotificationEvent } from './channel.js';
import { pagerdutyChannel } from './pagerduty.js';

const KEY = 'R0123456789abcdef0123456789abcde';
const ACCEPTED = { status: 202, body: '{"status":"success","message":"Event processed","dedup_key":"k"}' };
const harness = channelHarness(pagerdutyChannel, (origin) => ({ routingKey: KEY, apiUrl: `${origin}/` }), ACCEPTED);

describe('pagerduty channel', () => {
  // 400 is an invalid event: dead with the answer kept, its errors not read into the error.
  itHonoursTheReceiver(
    harness,
    DOWN_EVENT,
    {
      status: 400,
      body: '{"status":"invalid event","message":"Event object is invalid","errors":["Length of routing_key is incorrect"]}',
      error: 'HTTP 400',
    },
    { retryAfter: 30, body: 'throttled' },
  );

  it('a down monitor: a trigger keyed by the monitor, with its details and page link', async () => {
    const { outcome, request } = await harness.send(DOWN_EVENT);
    expect(outcome).toMatchObject({ kind: 'sent', status: 202 });
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v2/enqueue',
      headers: { 'content-type': 'application/json' },
    });
    expect(request.json).toEqual({
      routing_key: KEY,
      event_action: 'trigger',
      dedup_key: 'warden:acme:monitor:mon_1',
      payload: {
        summary: 'Lobby is down: connection refused <127.0.0.1:25565> & retried',
        source: 'lobby',
        severity: 'critical',
        timestamp: new Date(AT).toISOString(),
        component: 'Lobby',
        group: 'Acme Games',
        class: 'monitor.down',
        custom_details: {
          event: 'evt_down_1',
          kind: 'monitor.down',
          organization: 'Acme Games',
          reason: 'connection refused <127.0.0.1:25565> & retried',
          Monitor: 'Lobby',
          Page: 'Acme status (https://status.acme.test/main)',
        },
      },
      client: 'Warden',
      client_url: 'https://status.acme.test/main',
      links: [{ href: 'https://status.acme.test/main', text: 'Acme status' }],
    });
  });

  it('its recovery resolves the same dedup_key, and nothing more', async () => {
    const { outcome, request } = await harness.send(RECOVERED_EVENT);
    expect(outcome).toMatchObject({ kind: 'sent', status: 202 });
    expect(request.path).toBe('/v2/enqueue');
    expect(request.json).toEqual({ routing_key: KEY, event_action: 'resolve', dedup_key: 'warden:acme:monitor:mon_1' });
  });

  it('an incident triggers at warning under its id, and resolves when resolved', async () => {
    const created = (await harness.send(INCIDENT_EVENT)).request.json as Record<string, unknown>;
    expect(created).toMatchObject({
      event_action: 'trigger',
      dedup_key: 'warden:acme:incident:inc_1',
      payload: { severity: 'warning', class: 'incident.created', source: 'acme' },
    });
    const resolved = { ...INCIDENT_EVENT, id: 'evt_inc_2', kind: 'incident.resolved', severity: 'ok' } as const;
    expect((await harness.send(resolved)).request.json).toEqual({
      routing_key: KEY,
      event_action: 'resolve',
      dedup_key: 'warden:acme:incident:inc_1',
    });
  });

  it('a maintenance window is a change event, which pages no one', async () => {
    const started: NotificationEvent = {
      ...INCIDENT_EVENT,
      id: 'evt_mnt_1',
      kind: 'maintenance.started',
      severity: 'info',
      title: 'Maintenance: Database upgrade',
      reason: null,
      incident: undefined,
      maintenance: { id: 'mnt_1', title: 'Database upgrade', startsAt: AT, endsAt: AT + 3_600_000 },
    };
    const { request } = await harness.send(started);
    expect(request.path).toBe('/v2/change/enqueue');
    expect(request.json).toMatchObject({
      routing_key: KEY,
      payload: {
        summary: 'Maintenance: Database upgrade',
        timestamp: new Date(AT).toISOString(),
        source: 'acme',
        custom_details: { kind: 'maintenance.started' },
      },
      links: [{ href: 'https://status.acme.test/main', text: 'Acme status' }],
    });
  });

  it('validates its config with clear errors, and defaults to the real endpoint', () => {
    const parse = (config: unknown) => pagerdutyChannel.config.safeParse(config);
    expect(parse({ routingKey: KEY }).data).toEqual({ routingKey: KEY, apiUrl: 'https://events.pagerduty.com' });
    expect(parse({ routingKey: 'short' }).error?.issues[0]?.message).toMatch(/integration key/);
    expect(parse({ routingKey: KEY, apiUrl: 'ftp://x' }).error?.issues[0]?.message).toMatch(/http/);
    expect(pagerdutyChannel.secrets).toEqual(['routingKey']);
  });
});
