// Cluster mode end to end: three real `warden serve` processes on one PostgreSQL schema and Redis (through a proxy we
// can close), 300 TCP monitors every 10 s against local targets. One cluster serves the whole file, in order: live
// updates and a page password cross processes within 1 s, a relay's replay to another process is stored once, an alert
// is sent once; Redis stopped mid-run changes nothing but the speed of live updates; kill -9 of one process is absorbed
// within 30 s and its restart takes shards back without a duplicate; and over the whole run every (monitor, interval)
// was checked exactly once (test/cluster-harness.ts says precisely what that means, test/cluster-cadence.test.ts tests
// that count). The cluster starts in cluster-run.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shardLease, shardOf } from '../../src/domain/cluster.js';
import type { Monitor } from '../../src/domain/monitor.js';
import { cadence, clusterAvailable, describeCadence, sleep, until } from '../cluster-harness.js';
import { scaled } from '../time-scale.js';
import {
  ALERT_INTERVAL_SEC,
  CROSS_PROCESS_MS,
  FAILOVER_MS,
  INTERVAL_MS,
  listen,
  liveMessageOf,
  MONITORS,
  RELAY_TOKEN,
} from './cluster-fixtures.js';
import { clusterRun } from './cluster-run.js';

describe.skipIf(!clusterAvailable)('three Warden processes on PostgreSQL and Redis', () => {
  const run = clusterRun();
  /** The process killed (whichever checks the monitor that is down), when, and the monitors it held then. */
  let victim = '';
  let killedAt = 0;
  let heldByKilled = new Set<string>();
  let resumedWithinMs = Number.POSITIVE_INFINITY;
  let settledAgainAt = 0;

  it('shows a heartbeat pushed to one process on a live stream of another within 1 s', async () => {
    const client = await listen(`${run.cluster.url('b').replace('http', 'ws')}/s/live/live`);
    try {
      // The cluster has just started: a first heartbeat through each process, untimed, takes the path once (the live
      // page built on b, the first event through Redis) so the timed ones measure the cluster, not its first request.
      for (const via of ['a', 'c']) {
        const tag = `warm-up via ${via}`;
        expect(await run.push(via, tag)).toBe(200);
        await until(`"${tag}" on b`, () => client.messages.find((m) => liveMessageOf(m) === tag), 10_000, 5);
      }
      for (const [via, tag] of [
        ['a', 'pushed to a'],
        ['c', 'pushed to c'],
      ] as const) {
        const sent = performance.now();
        expect(await run.push(via, tag)).toBe(200);
        const update = await until(
          `"${tag}" on b`,
          () => client.messages.find((m) => liveMessageOf(m) === tag),
          5000,
          5,
        );
        expect(
          update.receivedAt - sent,
          `${tag} reached b after ${Math.round(update.receivedAt - sent)} ms`,
        ).toBeLessThan(CROSS_PROCESS_MS);
      }
    } finally {
      client.ws.close();
    }
  });

  it('enforces a page password added through one process on the other two within 1 s', async () => {
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${run.cluster.url('a')}${path}`, {
        method,
        headers: { authorization: `Bearer ${run.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // A page the API owns (one from warden.yaml is the file's to change), new in each attempt: a retry on the same
    // cluster would find the first attempt's page there already.
    const slug = `vault-${randomBytes(3).toString('hex')}`;
    expect((await api('POST', '/api/v1/pages', { slug, title: 'Vault' })).status).toBe(201);
    for (const id of ['b', 'c'])
      await until(
        `the new page on ${id}`,
        async () => (await fetch(`${run.cluster.url(id)}/s/${slug}`)).status === 200,
        5000,
      );
    expect((await api('PATCH', `/api/v1/pages/${slug}`, { password: 'correct-horse-battery' })).status).toBe(200);
    const since = performance.now();
    const took = await Promise.all(
      ['b', 'c'].map(async (id) => {
        await until(
          `401 from ${id}`,
          async () => (await fetch(`${run.cluster.url(id)}/s/${slug}`)).status === 401,
          5000,
          10,
        );
        return performance.now() - since;
      }),
    );
    for (const ms of took) expect(ms).toBeLessThan(CROSS_PROCESS_MS);
    const withPassword = await fetch(`${run.cluster.url('c')}/s/${slug}/status.json`, {
      headers: { authorization: 'Bearer correct-horse-battery' },
    });
    expect(withPassword.status).toBe(200);
  });

  it('stores a relay batch once when the relay replays it to another process, or sends it to two at once', async () => {
    const far = run.monitors.far as Monitor;
    const submit = async (id: string, results: unknown[]) => {
      const res = await fetch(`${run.cluster.url(id)}/api/relay/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RELAY_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { accepted: number; duplicates: number };
    };
    const batch = (n: number) => {
      const prefix = randomBytes(6).toString('base64url');
      const now = Date.now();
      return Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-${i}`,
        monitorId: far.id,
        ok: true,
        latencyMs: i,
        checkedAt: now - 10_000 + i,
      }));
    };
    // Delivered to a, its answer lost; the relay replays its queue to b (a load balancer sent it elsewhere).
    const first = batch(20);
    expect(await submit('a', first)).toMatchObject({ accepted: 20, duplicates: 0 });
    expect(await submit('b', first)).toMatchObject({ accepted: 20, duplicates: 20 });
    // Sent to b and c at the same moment: each result lands once, whoever commits first.
    const second = batch(20);
    const [b, c] = await Promise.all([submit('b', second), submit('c', second)]);
    expect(b.duplicates + c.duplicates).toBe(20);
    const stored = await run.cluster.checkTimes([far.id], 'relay');
    expect(stored.get(far.id)).toHaveLength(40);
  });

  it('sends the "down" alert of a monitor once, though three processes saw it', {
    timeout: scaled(30_000),
  }, async () => {
    await until('the "down" alert', () => run.alertsDown().length > 0, 15_000);
    // Several more checks of the closed port, on whichever process holds it: still one message.
    await sleep(3 * ALERT_INTERVAL_SEC * 1000);
    expect(run.alertsDown()).toHaveLength(1);
  });

  it('keeps checking, serving and accepting pushes with Redis stopped; live updates poll, then fan out again', {
    timeout: scaled(45_000),
  }, async () => {
    const client = await listen(`${run.cluster.url('b').replace('http', 'ws')}/s/live/live`);
    try {
      await run.cluster.redis?.close();
      run.timeline.push(['Redis stopped', Date.now()]);
      // Serving and accepting: pages, readiness and pushes on every process.
      for (const id of ['a', 'b', 'c']) {
        expect((await fetch(`${run.cluster.url(id)}/s/live`)).status).toBe(200);
        expect((await fetch(`${run.cluster.url(id)}/readyz`)).status).toBe(200);
      }
      // A push to a reaches b's stream all the same, by polling PostgreSQL (bounded staleness, not 1 s).
      const sent = performance.now();
      expect(await run.push('a', 'during the outage')).toBe(200);
      const polled = await until(
        'the push on b without Redis',
        () => client.messages.find((m) => liveMessageOf(m) === 'during the outage'),
        10_000,
        20,
      );
      const polledMs = polled.receivedAt - sent;
      run.timeline.push([`a push on a seen on b by polling after ${Math.round(polledMs)} ms`, Date.now()]);
      // The bound is the poll's (WARDEN_CHANGE_POLL_MS, 1 s) plus the page's rebuild, with room for a loaded machine.
      expect(polledMs).toBeLessThan(5000);
      await sleep(Math.max(0, 4000 - polledMs));

      await run.cluster.redis?.open();
      run.timeline.push(['Redis back', Date.now()]);
      // Fan-out resumes once the processes have reconnected: a push reaches b within 1 s again.
      await until(
        'a push on b within 1 s again',
        async () => {
          const tag = `after the outage ${randomBytes(3).toString('hex')}`;
          const at = performance.now();
          expect(await run.push('a', tag)).toBe(200);
          const seen = await until(
            `"${tag}" on b`,
            () => client.messages.find((m) => liveMessageOf(m) === tag),
            10_000,
            5,
          );
          return seen.receivedAt - at < CROSS_PROCESS_MS;
        },
        20_000,
        250,
      );
    } finally {
      client.ws.close();
    }
  });

  it('absorbs a kill -9 within 30 s, and takes shards back on restart without a duplicate check', {
    timeout: scaled(90_000),
  }, async () => {
    // Steady state first: at a cold start the shards move 16 a round until each process holds its share.
    await until('the shards settled', () => run.settledAt, Math.max(0, run.allUpAt + 45_000 - Date.now()), 250);
    run.timeline.push(['shards settled', run.settledAt]);
    // The victim: the process checking the monitor that is down, so its alert must also survive the failover once.
    const leases = await run.cluster.leases();
    victim = leases.find((l) => l.name === shardLease(shardOf((run.monitors.alerting as Monitor).id)))
      ?.holder as string;
    expect(['a', 'b', 'c']).toContain(victim);
    // What it held: its shards' leases, as PostgreSQL says.
    const now = Date.now();
    const shards = new Set(
      leases
        .filter((l) => l.holder === victim && Number(l.expires_at) > now && l.name.startsWith('shard:'))
        .map((l) => Number(l.name.slice(6))),
    );
    heldByKilled = new Set(run.tcpIds.filter((id) => shards.has(shardOf(id))));
    expect(heldByKilled.size).toBeGreaterThan(0);

    killedAt = await run.cluster.kill(victim);
    run.timeline.push([`${victim} killed`, killedAt]);
    const held = [...heldByKilled];
    let retaken = 0;
    const resumed = await until(
      `every monitor of ${victim} checked again`,
      async () => {
        if (!retaken && !(await run.cluster.leases()).some((l) => l.holder === victim && l.name.startsWith('shard:'))) {
          retaken = Date.now();
          run.timeline.push([`${victim}'s shards all taken over`, retaken]);
        }
        const times = await run.cluster.checkTimes(held);
        const firstAfter = held.map((id) => (times.get(id) ?? []).find((t) => t > killedAt));
        return firstAfter.every((t) => t !== undefined) ? (firstAfter as number[]) : null;
      },
      FAILOVER_MS + 10_000,
      500,
    );
    resumedWithinMs = Math.max(...resumed) - killedAt;
    run.timeline.push([`${victim}'s monitors all checked again`, killedAt + resumedWithinMs]);
    expect(resumedWithinMs).toBeLessThanOrEqual(FAILOVER_MS);

    // Restarted under the same instance id: it takes its share of the shards back.
    await run.cluster.startMember(victim);
    run.timeline.push([`${victim} restarted`, Date.now()]);
    await until(
      `${victim} holding its share of shards`,
      async () => run.cluster.balanced(['a', 'b', 'c']),
      30_000,
      250,
    );
    settledAgainAt = Date.now();
    run.timeline.push(['shards settled again', settledAgainAt]);
  });

  it('checked every (monitor, interval) exactly once over the whole run, the kill -9 aside', async () => {
    // One interval after the shards settled again, so every monitor b took back has had its first check from b.
    await sleep(Math.max(0, settledAgainAt + INTERVAL_MS + 2000 - Date.now()));
    const to = Date.now() - 1000;
    const times = await run.cluster.checkTimes(run.tcpIds);
    const report = cadence(times, {
      intervalMs: INTERVAL_MS,
      from: run.allUpAt,
      to,
      firstBy: run.settledAt + INTERVAL_MS + 2000,
      excused: [{ from: killedAt - INTERVAL_MS, to: killedAt + FAILOVER_MS, monitors: heldByKilled }],
    });
    const events = run.timeline.map(([what, at]) => `${what} +${((at - run.allUpAt) / 1000).toFixed(1)} s`).join(', ');
    const account = `${describeCadence(report)}\nresumed within ${resumedWithinMs} ms; ${events}; drift at +${(((report.maxDriftAt?.at ?? run.allUpAt) - run.allUpAt) / 1000).toFixed(1)} s`;
    console.log(account);
    expect(report.monitors, account).toBe(MONITORS);
    expect(report.duplicates, account).toEqual([]);
    expect(report.missed, account).toEqual([]);
    // Only the victim's monitors may have a gap over its death (each resumed within 30 s, checked above): no other missed one.
  });

  it('does not alert again when the process checking a down monitor dies and another takes it over', () => {
    // The monitor was down all along; its checks stopped for the failover (longer than 3 of its 2 s intervals).
    const sent = run.alertsDown().map((r) => ({ at: `+${((r.at - run.allUpAt) / 1000).toFixed(1)} s`, raw: r.raw }));
    expect(sent, `${JSON.stringify(sent)}; killed at +${((killedAt - run.allUpAt) / 1000).toFixed(1)} s`).toHaveLength(
      1,
    );
  });
});
