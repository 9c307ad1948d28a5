// One titled part of the Account screen: a bordered section named by its heading.
import { Paper, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
