// A monitor's last checks as coloured beats, newest on the right: the state of each check (never colour alone: each
// beat's title and the strip's label say it in words), its time and message on hover, a summary for screen readers.
import { useId } from 'react';
import type { MonitorBeat } from '../api/types';

const BEAT_WIDTH = 3;
const GAP = 1;
const HEIGHT = 18;

const COLOURS = {
  up: 'var(--mantine-color-green-filled)',
  degraded: 'var(--mantine-color-yellow-filled)',
  down: 'var(--mantine-color-red-filled)',
  none: 'var(--mantine-color-default-border)',
} as const;

type BeatState = 'up' | 'degraded' | 'down';

/** A passing check slower than the monitor's degraded threshold shows as degraded, as the monitor itself would. */
export function beatState(beat: MonitorBeat, degradedLatencyMs: number | null | undefined): BeatState {
  if (!beat.ok) return 'down';
  return degradedLatencyMs != null && beat.latencyMs != null && beat.latencyMs > degradedLatencyMs ? 'degraded' : 'up';
}

export function Beats({
  beats,
  slots,
  degradedLatencyMs,
  name,
}: {
  beats: readonly MonitorBeat[];
  /** How many beats the strip has room for: fewer checks leave empty slots on the left. */
  slots: number;
  degradedLatencyMs?: number | null;
  name: string;
}) {
  const titleId = useId();
  const shown = beats.slice(-slots);
  const width = slots * (BEAT_WIDTH + GAP) - GAP;
  const offset = slots - shown.length;
  return (
    <svg
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-labelledby={titleId}
      data-testid="beats"
    >
      <title id={titleId}>{summary(shown, degradedLatencyMs, name)}</title>
      {offset > 0 && (
        // Where there are no checks yet: a thin line, not beats.
        <rect x={0} y={HEIGHT / 2 - 1} width={offset * (BEAT_WIDTH + GAP) - GAP} height={2} fill={COLOURS.none} />
      )}
      {shown.map((beat, i) => {
        const state = beatState(beat, degradedLatencyMs);
        return (
          <rect
            key={beat.at}
            x={(offset + i) * (BEAT_WIDTH + GAP)}
            y={0}
            width={BEAT_WIDTH}
            height={HEIGHT}
            rx={1}
            fill={COLOURS[state]}
            data-state={state}
          >
            <title>{describe(beat, state)}</title>
          </rect>
        );
      })}
    </svg>
  );
}

const WORDS: Record<BeatState, string> = { up: 'up', degraded: 'degraded', down: 'down' };

function describe(beat: MonitorBeat, state: BeatState): string {
  const when = new Date(beat.at).toLocaleString();
  const latency = beat.latencyMs != null ? `, ${beat.latencyMs} ms` : '';
  return `${when}: ${WORDS[state]}${latency}${beat.message ? ` — ${beat.message}` : ''}`;
}

/** What a screen reader (and a focused strip) says: the counts, and the last check that did not pass. */
function summary(beats: readonly MonitorBeat[], degradedLatencyMs: number | null | undefined, name: string): string {
  if (beats.length === 0) return `${name}: no checks yet`;
  const states = beats.map((b) => beatState(b, degradedLatencyMs));
  const count = (s: BeatState) => states.filter((x) => x === s).length;
  const parts = [
    `${count('up')} up`,
    count('degraded') > 0 ? `${count('degraded')} degraded` : '',
    `${count('down')} down`,
  ];
  const lastBad = [...beats].reverse().find((b) => beatState(b, degradedLatencyMs) !== 'up');
  const latest = beats[beats.length - 1] as MonitorBeat;
  return (
    `${name}, ${beats.length === 1 ? 'the only check' : `last ${beats.length} checks`}: ${parts.filter(Boolean).join(', ')}. ` +
    `Latest: ${describe(latest, states[states.length - 1] as BeatState)}.` +
    (lastBad && lastBad !== latest ? ` Last problem: ${describe(lastBad, beatState(lastBad, degradedLatencyMs))}.` : '')
  );
}
