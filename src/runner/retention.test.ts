import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../domain/account.js';
import { type CheckRow, DAY_MS } from '../domain/check.js';
import type { NewDelivery } from '../domain/notification.js';
import { SYSTEM_MAIL_LIMITS } from '../domain/system-mail.js';
import { createLogger } from '../logger.js';
import { createRetention, DELIVERY_RETENTION_DAYS, PRUNE_BATCH } from './retention.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`retention on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(() => opened.cleanup());

    it('prunes checks and state changes past 30 days (checks in batches) and buckets past 400 days, keeping the rest', async () => {
      // Noon, so each group of checks below falls in one day.
      const now = Date.UTC(2026, 10, 20, 12);
      const day = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;
      const { monitors } = await seed(
        opened.store,
        'organization: { name: T }\nmonitors: [{ key: a, name: A, type: tcp, config: { host: h, port: 1 } }]',
        now,
      );
      const id = monitors.a!.id;
      const row = (checkedAt: number): CheckRow => ({
        monitorId: id,
        checkedAt,
        ok: true,
        degraded: false,
        latencyMs: 1,
        message: null,
        error: null,
        data: null,
        source: 'edge',
        resultId: null,
      });
      // Checks are stored with their buckets: the oldest two leave buckets past and just within 400 days.
      const old = [
        row(now - 401 * DAY_MS),
        row(now - 399 * DAY_MS),
        ...Array.from({ length: PRUNE_BATCH + 8 }, (_, i) => row(now - 31 * DAY_MS - i * 1000)),
      ];
      const recent = Array.from({ length: 5 }, (_, i) => row(now - i * 60_000));
      await opened.store.checks.write([...old, ...recent], []);
      // State changes go with the raw checks.
      const change = (id: string, at: number) => ({
        id,
        monitorId: monitors.a!.id,
        at,
        from: 'up' as const,
        to: 'down' as const,
        message: null,
      });
      await opened.store.monitorStates.appendChanges([
        change('stc_old', now - 31 * DAY_MS),
        change('stc_new', now - 29 * DAY_MS),
      ]);
      // Game changes are kept 30 days.
      const game = (changeId: string, at: number) => ({
        id: changeId,
        organizationId: monitors.a!.organizationId,
        monitorId: id,
        field: 'map' as const,
        from: 'de_inferno',
        to: 'de_dust2',
        at,
      });
      await opened.store.gameChanges.record([game('evt_old', now - 31 * DAY_MS), game('evt_new', now - 29 * DAY_MS)]);
      const retention = createRetention({
        store: opened.store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
      });
      const pruned = await retention.prune();
      // PostgreSQL drops hourly buckets a month at a time (docs/storage.md "Partitions"): the one 401 days old shares
      // its month with one 399 days old, and stays with it; its daily bucket goes, as on SQLite.
      const byMonth = dialect.name === 'postgres';
      expect(pruned.checks).toBe(PRUNE_BATCH + 10);
      expect(pruned.buckets).toBe(byMonth ? 1 : 2);
      expect(pruned.stateChanges).toBe(1);
      expect(pruned.gameChanges).toBe(1);
      expect((await opened.store.gameChanges.recent([id], 0, 10)).map((c) => c.id)).toEqual(['evt_new']);
      expect((await opened.store.monitorStates.listChanges(id, { limit: 10 })).map((c) => c.id)).toEqual(['stc_new']);
      expect(await opened.store.checks.list(id, { from: 0, to: now + 1, limit: 100 })).toHaveLength(5);
      // The buckets of pruned checks stay: history outlives the raw checks.
      const daily = await opened.store.checks.buckets('day', [id], 0, now + DAY_MS);
      expect(daily.map((b) => b.start)).toEqual([day(now - 399 * DAY_MS), day(now - 31 * DAY_MS), day(now)]);
      const hourly = await opened.store.checks.buckets('hour', [id], 0, now - 300 * DAY_MS);
      expect(hourly.map((b) => b.start)).toEqual([...(byMonth ? [now - 401 * DAY_MS] : []), now - 399 * DAY_MS]);
    });

    it('prunes sent and dead deliveries past 30 days in batches, never pending or sending ones', async () => {
      const now = Date.UTC(2026, 10, 20, 12);
      const { report } = await seed(opened.store, 'organization: { name: T }', now);
      const organizationId = report.organization.id;
      const channelId = 'nch_retention';
      await opened.store.channels.insert(
        {
          id: channelId,
          organizationId,
          key: 'hook',
          name: 'Hook',
          type: 'webhook',
          config: { url: 'http://127.0.0.1:1/hook' },
          rules: {},
          enabled: true,
          managedBy: 'api',
        },
        now,
      );
      let n = 0;
      const row = (): NewDelivery => {
        n += 1;
        // One monitor each, so every row is claimable at once.
        return {
          id: `dlv_${String(n).padStart(4, '0')}`,
          eventId: `evt_${n}`,
          channelId,
          organizationId,
          monitorId: `mon_${n}`,
          kind: 'monitor.down',
          event: '{}',
          nextAttemptAt: 0,
        };
      };
      const deliveries = opened.store.deliveries;
      const at = async (createdAt: number, count: number, outcome: 'sent' | 'dead' | 'sending' | 'pending') => {
        const rows = Array.from({ length: count }, row);
        await deliveries.enqueue(rows, createdAt);
        for (const r of rows) {
          if (outcome === 'dead') await deliveries.markDead(r.id, 'HTTP 404', 404, null);
        }
        if (outcome === 'sent' || outcome === 'sending') {
          const claimed = await deliveries.claimDue(createdAt, count, 60_000);
          expect(claimed).toHaveLength(count);
          if (outcome === 'sent') for (const d of claimed) await deliveries.markSent(d.id, createdAt, 204, null);
        }
        return rows.map((r) => r.id);
      };
      const cutoff = now - DELIVERY_RETENTION_DAYS * DAY_MS;
      await at(cutoff - DAY_MS, 5, 'sent');
      await at(cutoff - 1, 2, 'dead');
      const kept = [...(await at(cutoff, 2, 'sent')), ...(await at(now - DAY_MS, 1, 'dead'))];
      // Last: a claim takes every due row, so nothing else may be pending then.
      const sending = await at(cutoff - 2 * DAY_MS, 1, 'sending');
      const pending = await at(cutoff - DAY_MS, 1, 'pending');
      const retention = createRetention({
        store: opened.store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
        batch: 3,
      });
      expect(await retention.prune()).toEqual({
        partitions: 0,
        checks: 0,
        stateChanges: 0,
        buckets: 0,
        deliveries: 7,
        subscribers: 0,
        sessions: 0,
        accountTokens: 0,
        audit: 0,
        recipients: 0,
        gameChanges: 0,
      });
      const left = await deliveries.listByChannel(channelId, 100);
      expect(left.map((d) => d.id).sort()).toEqual([...pending, ...sending, ...kept].sort());
      expect((await retention.prune()).deliveries).toBe(0);
    });

    it('prunes expired sessions and one-time account links, keeping live ones', async () => {
      const now = Date.UTC(2026, 10, 20, 12);
      const store = opened.store;
      await store.users.insert({ id: 'usr_a', email: 'a@example.com', name: 'A', passwordHash: null }, now);
      const session = (id: string, expiresAt: number) => ({
        id,
        userId: 'usr_a',
        hash: `h_${id}`,
        createdAt: now - DAY_MS,
        lastSeenAt: now - DAY_MS,
        expiresAt,
        userAgent: null,
        address: null,
      });
      await store.sessions.insert(session('ses_old', now - 1));
      await store.sessions.insert(session('ses_live', now + DAY_MS));
      const token = (hash: string, expiresAt: number) => ({
        hash,
        purpose: 'password-reset' as const,
        userId: 'usr_a',
        createdAt: now - DAY_MS,
        expiresAt,
        usedAt: null,
      });
      await store.accountTokens.insert(token('old', now));
      await store.accountTokens.insert(token('live', now + 60_000));
      const retention = createRetention({
        store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
      });
      expect(await retention.prune()).toMatchObject({ sessions: 1, accountTokens: 1 });
      expect((await store.sessions.listByUser('usr_a', now)).map((s) => s.id)).toEqual(['ses_live']);
      expect(await store.accountTokens.use('live', 'password-reset', now)).toMatchObject({ hash: 'live' });
    });

    it('prunes audit entries past the retention of the audit log, keeping newer ones', async () => {
      const now = Date.UTC(2026, 10, 20, 12);
      const { report } = await seed(opened.store, 'organization: { name: T }', now);
      const entry = (id: string, at: number) => ({
        id,
        organizationId: report.organization.id,
        at,
        actorKind: 'system' as const,
        actorId: 'cli',
        actorName: 'cli',
        action: 'monitor.create',
        objectType: 'monitor',
        objectId: null,
        objectLabel: null,
        detail: null,
      });
      const cutoff = now - ACCOUNT_LIMITS.auditRetentionDays * DAY_MS;
      await opened.store.audit.append(entry('aud_old', cutoff - 1));
      await opened.store.audit.append(entry('aud_kept', cutoff + 1));
      const retention = createRetention({
        store: opened.store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
      });
      expect((await retention.prune()).audit).toBe(1);
      const left = await opened.store.audit.list({ organizationId: report.organization.id, limit: 10, actorId: 'cli' });
      expect(left.map((e) => e.id)).toEqual(['aud_kept']);
    });

    it('forgets system SMTP recipients that never confirmed, keeping confirmed and unsubscribed ones', async () => {
      const now = Date.UTC(2026, 10, 20, 12);
      const { report } = await seed(opened.store, 'organization: { name: T }', now);
      const organizationId = report.organization.id;
      const cutoff = now - SYSTEM_MAIL_LIMITS.forgetUnconfirmedAfterMs;
      const ask = (n: number, address: string, at: number) => {
        const id = `rcp_${String(n).padStart(16, '0')}`;
        return opened.store.recipients.ask(
          organizationId,
          address,
          { id, unsubscribeToken: `${id}.u`, confirmTokenHash: `h${n}`, expiresAt: at + 1 },
          at,
        );
      };
      await ask(1, 'forgotten@example.test', cutoff - 1);
      await ask(2, 'recent@example.test', cutoff + 1);
      await opened.store.recipients.confirm((await ask(3, 'confirmed@example.test', cutoff - 1))?.id ?? '', cutoff);
      await opened.store.recipients.unsubscribe((await ask(4, 'gone@example.test', cutoff - 1))?.id ?? '', cutoff);
      const retention = createRetention({
        store: opened.store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
      });
      expect((await retention.prune()).recipients).toBe(1);
      const left = await opened.store.recipients.findByAddresses(organizationId, [
        'forgotten@example.test',
        'recent@example.test',
        'confirmed@example.test',
        'gone@example.test',
      ]);
      expect(left.map((r) => r.address)).toEqual([
        'confirmed@example.test',
        'gone@example.test',
        'recent@example.test',
      ]);
    });
  });
}
