// The "Subscribers" section of the page editor (admins only): who follows the page — email, webhook, or a community's
// Discord or Slack channel — whether each is confirmed, an Approve button for a Slack webhook awaiting approval (nothing
// is sent to it until then), and Remove.
import { Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useOrganizationKey } from '../../api/organization';
import {
  approveSubscriber,
  deleteSubscriber,
  type SubscriberView,
  subscribersChanged,
  subscribersQuery,
} from '../../api/subscribers';
import { ConfirmButton } from '../../ui/confirm-button';
import { QueryState } from '../../ui/query-state';
import { TintedBadge } from './tinted-badge';

const KIND_LABEL: Record<SubscriberView['kind'], string> = {
  email: 'Email',
  webhook: 'Webhook',
  discord: 'Discord',
  slack: 'Slack',
};

export function SubscriberSection({ slug }: { slug: string }) {
  const org = useOrganizationKey();
  const subscribers = useQuery(subscribersQuery(org, slug));
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        Visitors follow the page's incidents and maintenance by email or webhook, and communities subscribe their
        Discord or Slack channel. A Slack webhook gets nothing until you approve it; a Discord channel unsubscribes by
        deleting its webhook in Discord.
      </Text>
      <QueryState query={subscribers} loading="Loading subscribers" failed="Could not load the subscribers">
        {(data) => (
          <Stack gap="xs">
            <Text size="sm">
              {data.counts.confirmed} confirmed · {data.counts.pending} awaiting confirmation or approval
            </Text>
            {data.subscribers.length > 0 && (
              <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Subscribers">
                {data.subscribers.map((subscriber) => (
                  <SubscriberRow key={subscriber.id} slug={slug} subscriber={subscriber} />
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </QueryState>
    </>
  );
}

function SubscriberRow({ slug, subscriber }: { slug: string; subscriber: SubscriberView }) {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const [approving, setApproving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const kind = KIND_LABEL[subscriber.kind];
  return (
    <Paper component="li" withBorder p="xs" radius="md" aria-label={`${kind} subscriber ${subscriber.address}`}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Group gap="xs">
            <TintedBadge color="gray">{kind}</TintedBadge>
            <Code>{subscriber.address}</Code>
            {subscriber.awaitingApproval ? (
              <TintedBadge color="yellow">Awaiting approval</TintedBadge>
            ) : subscriber.confirmed ? (
              <TintedBadge color="green">Confirmed</TintedBadge>
            ) : (
              <TintedBadge color="gray">Not confirmed</TintedBadge>
            )}
          </Group>
          {error && (
            <Text size="xs" c="red.8" role="alert">
              {error}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {subscriber.awaitingApproval && (
            <Button
              size="xs"
              loading={approving}
              aria-label={`Approve ${kind} subscriber ${subscriber.address}`}
              onClick={async () => {
                setApproving(true);
                setError(null);
                try {
                  await approveSubscriber(org, slug, subscriber.id);
                  await subscribersChanged(queryClient, org, slug);
                } catch (e) {
                  setError(e instanceof Error ? e.message : 'Could not approve it');
                } finally {
                  setApproving(false);
                }
              }}
            >
              Approve
            </Button>
          )}
          <ConfirmButton
            size="xs"
            variant="default"
            color="red"
            aria-label={`Remove ${kind} subscriber ${subscriber.address}`}
            title="Remove this subscriber?"
            message="It gets nothing more from this page, and is not told."
            confirmLabel="Remove subscriber"
            onConfirm={async () => {
              await deleteSubscriber(org, slug, subscriber.id);
              await subscribersChanged(queryClient, org, slug);
            }}
          >
            Remove
          </ConfirmButton>
        </Group>
      </Group>
    </Paper>
  );
}
