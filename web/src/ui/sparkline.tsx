// A tiny inline SVG of a series (the last 24 h of a monitor's latency): drawn from the values, gaps where null.
import { useId } from 'react';

const WIDTH = 96;
const HEIGHT = 24;

export function Sparkline({ values, label }: { values: readonly (number | null)[]; label: string }) {
  const titleId = useId();
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return null;
  const max = Math.max(...known);
  const min = Math.min(...known);
  const span = max - min || 1;
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  let path = '';
  let pen = false;
  values.forEach((value, i) => {
    if (value === null) {
      pen = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (HEIGHT - 2 - ((value - min) / span) * (HEIGHT - 4)).toFixed(1);
    path += `${pen ? 'L' : 'M'}${x} ${y}`;
    pen = true;
  });
  return (
    <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId}>
      <title id={titleId}>{label}</title>
      <path d={path} fill="none" stroke="var(--mantine-color-blue-filled)" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
