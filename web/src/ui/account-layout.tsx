// The signed-out screens' frame (sign in, setup, invitation, reset): one centred card with the product's name.
import { Center, Container, Paper, Stack, Title } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export function AccountLayout(): ReactNode {
  return (
    <Container size={420} py="xl">
      <Center mb="lg">
        <Title order={1} size="h2">
          Warden
        </Title>
      </Center>
      <Paper withBorder shadow="sm" p="lg" radius="md">
        <main>
          <Stack gap="md">
            <Outlet />
          </Stack>
        </main>
      </Paper>
    </Container>
  );
}
