// The three states every screen has besides its content: loading, failed (with a retry) and empty.
import { Alert, Button, Center, Loader, EmptyState as MantineEmptyState, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

/** A spinner with a name for screen readers; polite, so it does not interrupt. */
export function LoadingState({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="md" aria-hidden />
        <Text size="sm" c="dimmed">
          {label}…
        </Text>
      </Stack>
    </Center>
  );
}

/** What went wrong, announced at once (role=alert), with a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title = 'Could not load this',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const detail =
    error instanceof ApiError ? (error.detail ?? error.title) : error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" variant="light" title={title} role="alert" my="md">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{detail}</Text>
        {onRetry && (
          <Button size="xs" variant="default" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function EmptyState({
  title,
  description,
  action,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <MantineEmptyState my="xl" title={title} description={description}>
      {action && <MantineEmptyState.Actions>{action}</MantineEmptyState.Actions>}
    </MantineEmptyState>
  );
}
