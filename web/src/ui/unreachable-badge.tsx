// The mark of a monitor behind a down parent: the API's own words ("unreachable: Uplink is down"), as the monitor's
// alerts are held back meanwhile (docs/monitors.md, "Dependencies"). Tinted, its words in the text colour for contrast.
import { Badge } from '@mantine/core';

export function UnreachableBadge({ note }: { note: string | null | undefined }) {
  if (!note) return null;
  return (
    <Badge variant="light" color="orange" c="var(--mantine-color-text)" size="sm" tt="none" fw={600}>
      {note}
    </Badge>
  );
}
