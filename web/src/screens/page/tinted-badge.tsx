// A badge tinted by its meaning, its words in the text colour: Mantine's coloured badge text falls short of WCAG AA
// contrast at badge size, and the words carry the meaning anyway (never colour alone).
import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

export function TintedBadge({ color, children }: { color: string; children: ReactNode }) {
  return (
    <Badge variant="light" color={color} c="var(--mantine-color-text)" tt="none" fw={600}>
      {children}
    </Badge>
  );
}
