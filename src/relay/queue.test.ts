import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import type { RelayResult } from './protocol.js';
import { openResultQueue, QUEUE_FILE, type QueueOptions } from './queue.js';

const result = (n: number, extra: Partial<RelayResult> = {}): RelayResult => ({
  id: `r${n}`,
  monitorId: 'mon_a',
  ok: true,
  latencyMs: n,
  checkedAt: 1_000 + n,
  ...extra,
});
const ids = (lines: string[]) => lines.map((l) => (JSON.parse(l) as RelayResult).id);

describe('the relay result queue', () => {
  let dir: string;
  let logs: string[];
  let options: QueueOptions;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-queue-'));
    logs = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void logs.push(String(chunk))) });
    options = { dir, logger: createLogger('debug', sink) };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const fileText = () => readFileSync(join(dir, QUEUE_FILE), 'utf8');

  it('holds appended results on disk, oldest first, across a reopen', async () => {
    const queue = await openResultQueue(options);
    await Promise.all([queue.append([result(1)]), queue.append([result(2), result(3)])]);
    expect(fileText().trim().split('\n')).toHaveLength(3);
    expect(ids(queue.peek(10, 1e6).lines)).toEqual(['r1', 'r2', 'r3']);
    await queue.close();
    const reopened = await openResultQueue(options);
    expect(reopened.size()).toBe(3);
    expect(ids(reopened.peek(10, 1e6).lines)).toEqual(['r1', 'r2', 'r3']);
    await reopened.close();
  });

  it('peeks by count and bytes, and ack removes only what was peeked', async () => {
    const queue = await openResultQueue(options);
    await queue.append([1, 2, 3, 4, 5].map((n) => result(n)));
    const two = queue.peek(2, 1e6);
    expect(ids(two.lines)).toEqual(['r1', 'r2']);
    const lineBytes = Buffer.byteLength(two.lines[0] as string) + 1;
    expect(queue.peek(10, lineBytes * 3).lines).toHaveLength(3);
    expect(queue.peek(10, 1).lines).toHaveLength(1);
    await queue.append([result(6)]);
    await queue.ack(two.upTo);
    expect(ids(queue.peek(10, 1e6).lines)).toEqual(['r3', 'r4', 'r5', 'r6']);
    await queue.ack(queue.peek(10, 1e6).upTo);
    expect(queue.size()).toBe(0);
    expect(statSync(join(dir, QUEUE_FILE)).size).toBe(0);
    await queue.close();
  });

  it('drops the oldest results past its count or byte bound, and says so', async () => {
    const queue = await openResultQueue({ ...options, maxResults: 5 });
    await queue.append([1, 2, 3, 4, 5, 6, 7, 8].map((n) => result(n)));
    expect(queue.size()).toBe(5);
    expect(queue.dropped()).toBe(3);
    expect(ids(queue.peek(10, 1e6).lines)).toEqual(['r4', 'r5', 'r6', 'r7', 'r8']);
    expect(logs.join('')).toContain('the queue is full: dropped the oldest results');
    await queue.close();

    const bytesBound = await openResultQueue({ ...options, maxBytes: 300 });
    expect(bytesBound.size()).toBeLessThan(5);
    expect(bytesBound.bytes()).toBeLessThanOrEqual(300);
    expect(ids(bytesBound.peek(10, 1e6).lines).at(-1)).toBe('r8');
    await bytesBound.close();
  });

  it('an ack that races with drops removes nothing it did not send', async () => {
    const queue = await openResultQueue({ ...options, maxResults: 3 });
    await queue.append([result(1), result(2), result(3)]);
    const sent = queue.peek(2, 1e6);
    await queue.append([result(4), result(5)]);
    await queue.ack(sent.upTo);
    expect(ids(queue.peek(10, 1e6).lines)).toEqual(['r3', 'r4', 'r5']);
    await queue.close();
  });

  it('discards a torn last line and unreadable lines at open, and rewrites the file clean', async () => {
    const good = [result(1), result(2)].map((r) => JSON.stringify(r));
    writeFileSync(
      join(dir, QUEUE_FILE),
      `${good[0]}\nnot json\n{"id":"x","ok":"maybe"}\n${good[1]}\n{"id":"r3","monito`,
    );
    const queue = await openResultQueue(options);
    expect(ids(queue.peek(10, 1e6).lines)).toEqual(['r1', 'r2']);
    expect(logs.join('')).toContain('"discarded":3');
    expect(fileText()).toBe(`${good.join('\n')}\n`);
    await queue.append([result(4)]);
    expect(fileText().trim().split('\n')).toHaveLength(3);
    await queue.close();
  });

  it('cuts delivered lines out of the file as they pile up', async () => {
    const queue = await openResultQueue(options);
    await queue.append(Array.from({ length: 3000 }, (_, i) => result(i)));
    const before = statSync(join(dir, QUEUE_FILE)).size;
    await queue.ack(queue.peek(2500, 1e9).upTo);
    expect(queue.size()).toBe(500);
    expect(statSync(join(dir, QUEUE_FILE)).size).toBeLessThan(before / 4);
    await queue.close();
    const reopened = await openResultQueue(options);
    expect(ids(reopened.peek(1, 1e6).lines)).toEqual(['r2500']);
    await reopened.close();
  });

  it('refuses a data directory another running agent holds, and takes over a stale lock', async () => {
    // Our parent process stands in for another agent that is still running.
    writeFileSync(join(dir, 'lock'), String(process.ppid));
    await expect(openResultQueue(options)).rejects.toThrow(`another relay agent (pid ${process.ppid}) uses`);
    writeFileSync(join(dir, 'lock'), '999999999');
    const queue = await openResultQueue(options);
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toBe(String(process.pid));
    await queue.close();
  });
});
