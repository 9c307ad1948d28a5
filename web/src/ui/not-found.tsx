// What an unknown /app/… path shows.
import { Anchor, Container, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { RouterAnchor } from './router-link';

export function NotFound(): ReactNode {
  return (
    <Container size="sm" py="xl">
      <main>
        <Title order={1} size="h2" mb="sm">
          Nothing here
        </Title>
        <Text mb="md">This address is not a screen of the dashboard.</Text>
        <RouterAnchor to="/monitors">Go to the monitors</RouterAnchor>
        <Text size="sm" mt="sm">
          <Anchor href="/">Public status pages</Anchor>
        </Text>
      </main>
    </Container>
  );
}
