// Store contract, the change counter: moved by committed writes only, never losing a move, read cheaply by every process.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { dialects } from '../store-dialects.js';
import { describeStore } from './store-fixtures.js';

describeStore('the change counter', (store) => {
  it('starts at 0 and moves by one per bump, answering the new value', async () => {
    expect(await store().changes.current()).toBe(0);
    expect(await store().changes.bump()).toBe(1);
    expect(await store().changes.bump()).toBe(2);
    expect(await store().changes.current()).toBe(2);
  });

  it('moves with a committed transaction and not with one rolled back', async () => {
    await store().transaction(async (tx) => {
      expect(await tx.changes.bump()).toBe(1);
    });
    await expect(
      store().transaction(async (tx) => {
        await tx.changes.bump();
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await store().changes.current()).toBe(1);
  });

  it('loses no bump when transactions commit at once', async () => {
    await Promise.all(Array.from({ length: 10 }, () => store().transaction((tx) => tx.changes.bump())));
    expect(await store().changes.current()).toBe(10);
  });
});

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the change counter seen by another process on ${dialect.name}`, () => {
    it('reads what a store opened on the same database moved', async () => {
      const opened = await dialect.open();
      const env = opened.env;
      const other = await openStore({
        dataDir: env.WARDEN_DATA_DIR ?? '.',
        databaseUrl: env.DATABASE_URL || undefined,
        databaseSchema: env.DATABASE_SCHEMA,
      });
      try {
        expect(await other.changes.current()).toBe(0);
        await opened.store.transaction((tx) => tx.changes.bump());
        expect(await other.changes.current()).toBe(1);
        await other.changes.bump();
        expect(await opened.store.changes.current()).toBe(2);
      } finally {
        await other.close();
        await opened.cleanup();
      }
    });
  });
