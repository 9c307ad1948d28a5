// A screen's title (its one h1) and the actions beside it.
import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function ScreenHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
