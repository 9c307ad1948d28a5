// The sending parts alone, on plain values: where a delivery goes (or why it is given up), the organizations' target
// guards read once per window, and one send bounded by its time limit and the stop. No store, no real clock.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Delivery, NotificationChannel } from '../../domain/notification.js';
import type { Organization } from '../../domain/organization.js';
import { defineChannel, type NotificationEvent, type SendOutcome } from '../channels/channel.js';
import { createGuards, sendWithTimeout, targetOf } from './send.js';

const hook = defineChannel({
  type: 'hook',
  label: 'Hook',
  config: z.object({ url: z.string().url() }),
  secrets: [],
  targets: ['url'],
  send: async () => ({ kind: 'sent', status: 204 }),
});
const channel = (more: Partial<NotificationChannel> = {}): NotificationChannel => ({
  id: 'nch_a',
  organizationId: 'org_a',
  key: 'oncall',
  name: 'On call',
  type: 'hook',
  config: { url: 'https://hooks.example/x' },
  rules: { events: ['monitor.down'] },
  enabled: true,
  managedBy: 'api',
  createdAt: 0,
  updatedAt: 0,
  ...more,
});
const delivery = { id: 'dlv_1', channelId: 'nch_a', subscriberId: null, organizationId: 'org_a' } as Delivery;
const storeWith = (found: NotificationChannel | undefined) => ({ channels: { findById: async () => found } }) as never;

describe('a delivery’s target', () => {
  it('is its channel’s definition, parsed config and rules, named by the channel’s key', async () => {
    const target = await targetOf(delivery, { store: storeWith(channel()), channels: { hook } });
    expect(target).toMatchObject({
      label: 'oncall',
      config: { url: 'https://hooks.example/x' },
      rules: { events: ['monitor.down'] },
    });
  });

  it('gives the delivery up when the channel is disabled, of an unknown type, or its config no longer parses', async () => {
    expect(await targetOf(delivery, { store: storeWith(channel({ enabled: false })), channels: { hook } })).toEqual({
      dead: 'the channel is disabled',
    });
    expect(await targetOf(delivery, { store: storeWith(channel({ type: 'fax' })), channels: { hook } })).toEqual({
      dead: 'unknown channel type fax',
    });
    const broken = await targetOf(delivery, {
      store: storeWith(channel({ config: { url: 'not a url' } })),
      channels: { hook },
    });
    expect(broken).toMatchObject({ dead: expect.stringMatching(/^invalid channel config: /) });
  });

  it('is nothing when the channel was deleted meanwhile, or a subscriber’s delivery has no resolver', async () => {
    expect(await targetOf(delivery, { store: storeWith(undefined), channels: { hook } })).toBeNull();
    expect(
      await targetOf(
        { ...delivery, channelId: null, subscriberId: 'sub_1' },
        { store: storeWith(undefined), channels: {} },
      ),
    ).toBeNull();
  });
});

describe('target guards', () => {
  const org = (id: string, probePrivateTargets?: 'allow' | 'deny') =>
    ({ id, key: id, probePrivateTargets }) as unknown as Organization;

  it('reads the organizations’ policies once per window, and again after it', async () => {
    let reads = 0;
    let organizations = [org('org_a', 'allow'), org('org_b', 'deny')];
    const list = async () => {
      reads += 1;
      return organizations;
    };
    const store = { organizations: { list } } as never;
    let t = 0;
    const guardOf = createGuards(store, 'auto', 1_000, () => t);
    expect((await guardOf('org_a')).restricted).toBe(false);
    expect((await guardOf('org_b')).restricted).toBe(true);
    // Not found: denied.
    expect((await guardOf('org_gone')).restricted).toBe(true);
    expect(reads).toBe(1);
    organizations = [org('org_a', 'deny')];
    t = 1_001;
    expect((await guardOf('org_a')).restricted).toBe(true);
    expect(reads).toBe(2);
  });

  it('does not keep a failed read: the next send reads again', async () => {
    let fail = true;
    const store = {
      organizations: { list: async () => (fail ? Promise.reject(new Error('db down')) : [org('org_a', 'allow')]) },
    } as never;
    const guardOf = createGuards(store, 'deny', 60_000, () => 0);
    await expect(guardOf('org_a')).rejects.toThrow('db down');
    fail = false;
    expect((await guardOf('org_a')).restricted).toBe(false);
  });
});

describe('one send', () => {
  const event = { id: 'evt_1' } as NotificationEvent;
  const clock = { now: () => 0 };
  const guard = { restricted: false, refusal: () => undefined };
  const sendOf = (send: () => Promise<SendOutcome>) => ({
    definition: { ...hook, send },
    event,
    config: {},
    attempt: 0,
    guard,
  });

  it('hands back what the channel answered, and a thrown error as a retry', async () => {
    const stopping = new AbortController().signal;
    expect(
      await sendWithTimeout(
        { clock, attemptTimeoutMs: 1_000, stopping },
        sendOf(async () => ({ kind: 'sent', status: 200 })),
      ),
    ).toEqual({ kind: 'sent', status: 200 });
    const thrown = await sendWithTimeout(
      { clock, attemptTimeoutMs: 1_000, stopping },
      sendOf(() => Promise.reject(new Error('socket hang up'))),
    );
    expect(thrown).toEqual({ kind: 'retry', status: null, error: 'socket hang up' });
  });

  it('gives up a channel that ignores its signal: at the time limit, or at once when the stop aborts', async () => {
    const never = () => new Promise<SendOutcome>(() => {});
    const idle = new AbortController().signal;
    expect(await sendWithTimeout({ clock, attemptTimeoutMs: 5, stopping: idle }, sendOf(never))).toEqual({
      kind: 'retry',
      status: null,
      error: 'timed out',
    });
    const stop = new AbortController();
    const sending = sendWithTimeout({ clock, attemptTimeoutMs: 60_000, stopping: stop.signal }, sendOf(never));
    stop.abort();
    expect(await sending).toEqual({ kind: 'retry', status: null, error: 'stopped' });
  });
});
