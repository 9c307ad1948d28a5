// Who spent the machine's CPU in a part of a bench's window: each Warden process, PostgreSQL (all its processes), Redis,
// the bench itself (its load generator or TCP targets) and the rest, in cores, from /proc. A late check on a loaded
// machine says little until it is known what loaded it.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU ticks (1/100 s) spent so far by each live process, and by the whole machine (busy and all). */
export interface CpuSample {
  at: number;
  perPid: Map<number, { comm: string; ticks: number }>;
  machineBusy: number;
  machineAll: number;
}

function readStat(pid: number): { comm: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // Fields after the command name: utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone meanwhile
  }
}

export function sampleCpu(): CpuSample {
  const perPid = new Map<number, { comm: string; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) perPid.set(pid, stat);
  }
  // /proc/stat's first line: user nice system idle iowait irq softirq steal … in ticks over all cores.
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.split(/\s+/).slice(1).map(Number) ?? [];
  const all = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { at: Date.now(), perPid, machineBusy: all - idle, machineAll: all };
}

/**
 * Cores each group used between two samples. `named` maps a pid to its group (a Warden process's id); the others are
 * grouped by command: postgres, redis-server, the bench itself, the rest. A process that lived in only one of the two
 * samples is counted from zero (started) or not at all (gone: its last ticks are lost).
 */
export function cpuBetween(from: CpuSample, to: CpuSample, named: ReadonlyMap<number, string>): Map<string, number> {
  const seconds = (to.at - from.at) / 1000;
  const groups = new Map<string, number>();
  const add = (group: string, ticks: number) => groups.set(group, (groups.get(group) ?? 0) + ticks);
  for (const [pid, { comm, ticks }] of to.perPid) {
    const before = from.perPid.get(pid);
    const spent = before && before.comm === comm ? ticks - before.ticks : ticks;
    if (spent <= 0) continue;
    const group =
      named.get(pid) ??
      (pid === process.pid ? 'bench' : comm === 'postgres' ? 'postgres' : comm === 'redis-server' ? 'redis' : 'other');
    add(group, spent);
  }
  const cores = new Map<string, number>();
  for (const [group, ticks] of groups) cores.set(group, ticks / 100 / seconds);
  // The machine's busy share over all its cores, as cores.
  cores.set(
    'machine',
    ((to.machineBusy - from.machineBusy) / Math.max(1, to.machineAll - from.machineAll)) * cpus().length,
  );
  return cores;
}

/** "a 0.41, b 0.40, … machine 1.93 of 2 cores", Warden's processes first. */
export function describeCpu(cores: ReadonlyMap<string, number>, first: readonly string[]): string {
  const order = [...first, 'postgres', 'redis', 'bench', 'other'];
  const parts = order.filter((g) => cores.has(g)).map((g) => `${g} ${(cores.get(g) as number).toFixed(2)}`);
  return `${parts.join(', ')}; machine ${(cores.get('machine') ?? 0).toFixed(2)} of ${cpus().length} cores`;
}
