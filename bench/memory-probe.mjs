// Preloaded into a benchmarked server (NODE_OPTIONS=--import): on SIGUSR2 it writes the process's memory breakdown,
// as JSON, to WARDEN_MEMORY_PROBE_FILE, and a heap snapshot into the folder WARDEN_MEMORY_PROBE_SNAPSHOT names, if set.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';

const file = process.env.WARDEN_MEMORY_PROBE_FILE;
let taken = 0;
if (file)
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]),
    );
    const heap = getHeapStatistics();
    const snapshot = process.env.WARDEN_MEMORY_PROBE_SNAPSHOT
      ? writeHeapSnapshot(
          join(process.env.WARDEN_MEMORY_PROBE_SNAPSHOT, `warden-${process.pid}-${++taken}.heapsnapshot`),
        )
      : null;
    writeFileSync(
      file,
      JSON.stringify({ usage: process.memoryUsage(), spaces, mallocedMemory: heap.malloced_memory, snapshot }),
    );
  });
