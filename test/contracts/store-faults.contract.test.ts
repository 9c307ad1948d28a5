// Store contract, faults: a database that cannot store for a reason that passes (SQLite full, PostgreSQL away) makes
// every operation fail with StorageUnavailableError (the driver's error as its cause), told to availability listeners;
// nothing of a failed transaction is left; and the same store stores again once the database does.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/domain/account.js';
import { type StorageFault, StorageUnavailableError } from '../../src/domain/errors.js';
import type { Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/open-store.js';
import { captureSqliteHandles } from '../fakes/sqlite-handles.js';
import { startTcpProxy, type TcpProxy } from '../fakes/tcp-proxy.js';
import { type DialectCase, dialects, type OpenedStore, POSTGRES_URL } from '../store-dialects.js';
import { addMonitor, addOrganization, check, NOW, ORG, rejectionOf, stateRow } from './store-fixtures.js';

/** Enough text to need pages of its own. */
const LONG = Array.from({ length: 2000 }, (_, i) => `w${(i * 7919) % 10007}`).join(' ');

function listen(store: Store): { fault: StorageFault; cause: unknown }[] {
  const heard: { fault: StorageFault; cause: unknown }[] = [];
  store.availability.onFault((fault, cause) => heard.push({ fault, cause }));
  return heard;
}

describe('store faults on sqlite: the file refusing to grow (max_page_count)', () => {
  const sqlite = dialects.find((d) => d.name === 'sqlite') as DialectCase;
  let opened: OpenedStore | undefined;
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });

  async function openCapped() {
    const capture = captureSqliteHandles();
    try {
      opened = await sqlite.open();
    } finally {
      capture.stop();
    }
    const handle = capture.handles.at(-1);
    if (!handle) throw new Error('no SQLite connection opened');
    await addOrganization(opened.store);
    await addMonitor(opened.store, 'a');
    return {
      store: opened.store,
      full: () => handle.pragma(`max_page_count = ${handle.pragma('page_count', { simple: true })}`),
      room: () => handle.pragma('max_page_count = 1073741823'),
    };
  }

  it('fails writes with StorageUnavailableError (full) and tells the listeners, in and outside a transaction', async () => {
    const { store, full, room } = await openCapped();
    const heard = listen(store);
    const writes = store.availability.committedWrites();
    full();

    // A single write outside a transaction (Kysely's path), one in a transaction, and a commit of checks (the writer's own statements).
    const single = await rejectionOf(store.audit.append(auditEntry()));
    const inTransaction = await rejectionOf(store.transaction(async (tx) => tx.audit.append(auditEntry())));
    const checks = await rejectionOf(
      store.transaction((tx) =>
        tx.checks.write(
          Array.from({ length: 50 }, (_, i) => ({ ...check('mon_a', NOW + i), message: LONG })),
          [stateRow('mon_a')],
        ),
      ),
    );
    for (const error of [single, inTransaction, checks]) {
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'storage-unavailable', fault: 'full', retryAfterSec: 5 });
      expect((error as Error).cause).toMatchObject({ code: 'SQLITE_FULL' });
      expect((error as Error).message).not.toContain('SQLITE');
    }
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(heard.every((h) => h.fault === 'full')).toBe(true);
    expect(await store.checks.list('mon_a', { from: 0, to: NOW + 100, limit: 100 })).toEqual([]);

    room();
    await store.transaction((tx) => tx.checks.write([{ ...check('mon_a', NOW), message: LONG }], [stateRow('mon_a')]));
    await store.audit.append(auditEntry());
    expect(store.availability.committedWrites()).toBeGreaterThan(writes);
    expect(await store.checks.list('mon_a', { from: 0, to: NOW + 100, limit: 100 })).toHaveLength(1);
  });

  it('leaves other errors as they are: a unique violation is still one', async () => {
    const { store, full } = await openCapped();
    full();
    const error = await rejectionOf(addMonitor(store, 'a'));
    expect(error).not.toBeInstanceOf(StorageUnavailableError);
    expect(store.isUniqueViolation(error)).toBe(true);
  });
});

const postgres = dialects.find((d) => d.name === 'postgres') as DialectCase;
describe.skipIf(!postgres.available)('store faults on postgres: the server going away', () => {
  let opened: OpenedStore | undefined;
  let proxied: Store | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxied?.close();
    await proxy?.close();
    await opened?.cleanup();
    proxied = opened = proxy = undefined;
  });

  it('fails with StorageUnavailableError (unreachable) while away, and its pool serves again once it is back', async () => {
    opened = await postgres.open();
    const target = new URL(POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    proxied = await openStore({
      dataDir: '.',
      databaseUrl: target.toString(),
      databaseSchema: opened.env.DATABASE_SCHEMA,
    });
    const store = proxied;
    await addOrganization(store);
    await addMonitor(store, 'a');
    // Connections held in the pool (idle) and one in a transaction when the cut comes.
    await Promise.all([store.ping(), store.ping(), store.ping()]);
    const heard = listen(store);
    let release: () => void = () => {};
    const held = store.transaction(async (tx) => {
      await tx.checks.write([check('mon_a', NOW)], [stateRow('mon_a')]);
      await new Promise<void>((resolve) => (release = resolve));
      await tx.checks.write([check('mon_a', NOW + 1)], [stateRow('mon_a')]);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));

    await proxy.cut();
    release();
    for (const error of [
      await rejectionOf(held),
      await rejectionOf(store.ping()),
      await rejectionOf(store.transaction((tx) => tx.audit.append(auditEntry()))),
    ]) {
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect(error).toMatchObject({ fault: 'unreachable', status: 503 });
    }
    expect(heard.length).toBeGreaterThanOrEqual(3);

    await proxy.restore();
    await store.ping();
    await store.transaction((tx) => tx.checks.write([check('mon_a', NOW + 2)], [stateRow('mon_a')]));
    // The transaction cut in the middle left nothing; the one after the restore is there.
    expect(
      (await opened.store.checks.list('mon_a', { from: 0, to: NOW + 100, limit: 10 })).map((c) => c.checkedAt),
    ).toEqual([NOW + 2]);
  });

  it('fails as unreachable within its connect timeout when the server never answers (packets dropped), not minutes later', async () => {
    opened = await postgres.open();
    const target = new URL(POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    proxied = await openStore({
      dataDir: '.',
      databaseUrl: target.toString(),
      databaseSchema: opened.env.DATABASE_SCHEMA,
    });
    await proxied.ping();
    // The pool's connections die; the next ones are accepted and never answered.
    await proxy.cut();
    await proxy.restore();
    proxy.stall();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const error = await rejectionOf(proxied.ping());
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ fault: 'unreachable', status: 503 });
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});

/** An audit entry with a long label: a row that needs new pages. */
function auditEntry(): AuditEntry {
  return {
    id: `aud_${Math.random().toString(36).slice(2)}`,
    organizationId: ORG.id,
    at: NOW,
    actorKind: 'system',
    actorId: 'test',
    actorName: 'test',
    action: 'monitor.update',
    objectType: 'monitor',
    objectId: 'mon_a',
    objectLabel: LONG,
    detail: null,
  };
}
