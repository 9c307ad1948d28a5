// The relay's outbox: results waiting for the server, as fsynced JSON lines on disk, bounded (oldest dropped and logged).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type FileHandle, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.js';
import { HeldResults } from './held-results.js';
import { type RelayResult, relayResultSchema } from './protocol.js';

export const QUEUE_DEFAULTS = {
  /** Results held at most; beyond it the oldest are dropped (and logged). */
  maxResults: 100_000,
  /** Bytes of JSON held at most; beyond it the oldest are dropped (and logged). */
  maxBytes: 64 * 1024 * 1024,
} as const;
export const QUEUE_FILE = 'queue.jsonl';
const LOCK_FILE = 'lock';
/** Delivered lines are cut from the file once they outnumber both this and the lines still waiting: O(1) amortized per result. */
const COMPACT_AFTER_LINES = 1000;

import type { QueuedBatch } from './held-results.js';

export type { QueuedBatch };

export interface ResultQueue {
  size(): number;
  bytes(): number;
  /** Results dropped because the queue was full, since it was opened. */
  dropped(): number;
  /** Resolves once the results are on disk (fsynced): only then do they count as held. */
  append(results: RelayResult[]): Promise<void>;
  /** The oldest results, up to a count and a byte size, without removing them. */
  peek(maxCount: number, maxBytes: number): QueuedBatch;
  /** Removes the results of a batch the server answered for (results dropped meanwhile are skipped). */
  ack(upTo: number): Promise<void>;
  close(): Promise<void>;
}

export interface QueueOptions {
  dir: string;
  logger: Logger;
  maxResults?: number;
  maxBytes?: number;
}

/** Opens (or creates) the queue in `dir`, taking a lock so two agents never share it; a torn last line (crash) is dropped. */
export async function openResultQueue(options: QueueOptions): Promise<ResultQueue> {
  const maxResults = options.maxResults ?? QUEUE_DEFAULTS.maxResults;
  const maxBytes = options.maxBytes ?? QUEUE_DEFAULTS.maxBytes;
  const file = join(options.dir, QUEUE_FILE);
  await mkdir(options.dir, { recursive: true });
  const releaseLock = takeLock(join(options.dir, LOCK_FILE));

  const held = new HeldResults({ maxResults, maxBytes }, options.logger);
  let handle: FileHandle | null = null;
  /** Bytes of the file that hold whole lines: a failed write is cut back to here, so no torn line is left mid-file. */
  let fileBytes = 0;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;
  /** Results given to append() and not yet written, written together with one fsync. */
  let incoming: { lines: string[]; done: (() => void)[]; failed: ((error: unknown) => void)[] } | null = null;

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work);
    chain = run.catch(() => {});
    return run;
  };

  const { lines, discarded } = await readQueueFile(file);
  for (const line of lines) held.hold(line);
  if (discarded > 0)
    options.logger.warn({ discarded, file }, 'dropped unreadable lines from the queue file (a crash mid-write?)');
  const droppedAtOpen = held.enforceBounds();
  if (discarded > 0 || droppedAtOpen > 0) await rewrite();
  else {
    handle = await open(file, 'a', 0o600);
    fileBytes = (await handle.stat()).size;
  }
  const writer = (): FileHandle => handle as FileHandle;

  /** Writes the held results to a new file and swaps it in, fsyncing both the file and the directory. */
  async function rewrite(): Promise<void> {
    const written = await writeTemporary(file, held.lines());
    await handle?.close();
    handle = null;
    await swapIn(written.temporary, file, options.dir);
    handle = await open(file, 'a', 0o600);
    fileBytes = written.bytes;
    held.deadLines = 0;
  }

  async function writeIncoming(): Promise<void> {
    const batch = incoming;
    incoming = null;
    if (!batch) return;
    const text = `${batch.lines.join('\n')}\n`;
    try {
      await writer().write(text);
      await writer().sync();
      fileBytes += Buffer.byteLength(text);
    } catch (error) {
      await writer()
        .truncate(fileBytes)
        .catch(() => {});
      for (const fail of batch.failed) fail(error);
      return;
    }
    for (const line of batch.lines) held.hold(line);
    if (held.enforceBounds() > 0 && held.deadLines >= COMPACT_AFTER_LINES) await rewrite();
    for (const done of batch.done) done();
  }

  async function forget(upTo: number): Promise<void> {
    if (held.forget(upTo) === 0) return;
    if (held.size === 0) {
      await writer().truncate(0);
      await writer().sync();
      fileBytes = 0;
      held.deadLines = 0;
    } else if (held.deadLines >= COMPACT_AFTER_LINES && held.deadLines >= held.size) await rewrite();
  }

  return {
    size: () => held.size,
    bytes: () => held.bytes,
    dropped: () => held.droppedTotal,
    append(results) {
      if (closed) return Promise.reject(new Error('the queue is closed'));
      if (results.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        if (!incoming) {
          incoming = { lines: [], done: [], failed: [] };
          void serial(writeIncoming);
        }
        for (const r of results) incoming.lines.push(JSON.stringify(r));
        incoming.done.push(resolve);
        incoming.failed.push(reject);
      });
    },
    peek: (maxCount, maxBytesPerBatch) => held.peek(maxCount, maxBytesPerBatch),
    ack: (upTo) => serial(() => forget(upTo)),
    async close() {
      if (closed) return;
      closed = true;
      await serial(async () => {
        if (held.deadLines > 0 && held.size > 0) await rewrite();
        await writer().close();
      });
      releaseLock();
    },
  };
}

/** Writes `lines` beside `file`, fsynced; returns the temporary file and its size. */
async function writeTemporary(file: string, lines: string[]): Promise<{ temporary: string; bytes: number }> {
  const temporary = `${file}.tmp`;
  const out = await open(temporary, 'w', 0o600);
  const text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  try {
    await out.writeFile(text);
    await out.sync();
  } finally {
    await out.close();
  }
  return { temporary, bytes: Buffer.byteLength(text) };
}

/** Renames the temporary file over `file` and fsyncs the folder, so the rename survives a crash. */
async function swapIn(temporary: string, file: string, dir: string): Promise<void> {
  await rename(temporary, file);
  const folder = await open(dir, 'r');
  await folder.sync().finally(() => folder.close());
}

/** The queue file's results; a line that is not a valid result (a torn write, a hand edit) is discarded and counted. */
async function readQueueFile(file: string): Promise<{ lines: string[]; discarded: number }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], discarded: 0 };
    throw error;
  }
  const parts = text.split('\n');
  const tail = parts.pop() as string;
  let discarded = tail === '' ? 0 : 1;
  const lines: string[] = [];
  for (const line of parts) {
    if (line === '') continue;
    try {
      if (relayResultSchema.safeParse(JSON.parse(line)).success) {
        lines.push(line);
        continue;
      }
    } catch {}
    discarded++;
  }
  return { lines, discarded };
}

/** A lock file holding our pid; one left by an agent that no longer runs (crash, kill -9) is taken over. */
function takeLock(path: string): () => void {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid))
      throw new Error(`another relay agent (pid ${pid}) uses ${dirname(path)}; give each agent its own --data-dir`);
    writeFileSync(path, String(process.pid), { mode: 0o600 });
  }
  return () => rmSync(path, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
