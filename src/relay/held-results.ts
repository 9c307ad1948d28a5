// The relay queue's results in memory, in the order they were written: what is held, what a batch may take, and which
// lines of the queue file are dead (delivered or dropped) and wait to be cut out. queue.ts keeps the file in step.
import type { Logger } from '../logger.js';

export interface QueuedBatch {
  /** The results as JSON, one per element, oldest first. */
  lines: string[];
  /** Pass to ack() once the server answered for them. */
  upTo: number;
}

interface Entry {
  seq: number;
  line: string;
  bytes: number;
}

export class HeldResults {
  private readonly entries: Entry[] = [];
  private heldBytes = 0;
  private nextSeq = 1;
  /** Lines in the file that are no longer held (delivered or dropped), cut out at the next compaction. */
  deadLines = 0;
  droppedTotal = 0;

  constructor(
    private readonly bounds: { maxResults: number; maxBytes: number },
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  lines(): string[] {
    return this.entries.map((e) => e.line);
  }

  hold(line: string): void {
    const entry = { seq: this.nextSeq++, line, bytes: Buffer.byteLength(line) + 1 };
    this.entries.push(entry);
    this.heldBytes += entry.bytes;
  }

  /** Drops the oldest results over the bounds (logged); returns how many. */
  enforceBounds(): number {
    const { maxResults, maxBytes } = this.bounds;
    let dropped = 0;
    while (this.entries.length > 0 && (this.entries.length > maxResults || this.heldBytes > maxBytes)) {
      this.heldBytes -= (this.entries.shift() as Entry).bytes;
      this.deadLines++;
      dropped++;
    }
    if (dropped > 0) {
      this.droppedTotal += dropped;
      this.logger.warn(
        { dropped, held: this.entries.length, maxResults, maxBytes },
        'the queue is full: dropped the oldest results',
      );
    }
    return dropped;
  }

  /** The oldest results, up to a count and a byte size, without removing them. */
  peek(maxCount: number, maxBytesPerBatch: number): QueuedBatch {
    const lines: string[] = [];
    let size = 0;
    let upTo = 0;
    for (const entry of this.entries) {
      if (lines.length >= maxCount || (lines.length > 0 && size + entry.bytes > maxBytesPerBatch)) break;
      lines.push(entry.line);
      size += entry.bytes;
      upTo = entry.seq;
    }
    return { lines, upTo };
  }

  /** Forgets the results up to `upTo` (a batch the server answered for); returns how many. */
  forget(upTo: number): number {
    let removed = 0;
    while (this.entries.length > 0 && (this.entries[0] as Entry).seq <= upTo) {
      this.heldBytes -= (this.entries.shift() as Entry).bytes;
      removed++;
    }
    this.deadLines += removed;
    return removed;
  }
}
