// "New signing secret" on a channel's form (types whose secret Warden generates: webhook): asks first, since the
// current secret stops signing at once, then hands the channel with its new secret to be shown once.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Channel } from './channel-draft';

export function NewSecret({
  channel,
  onIssued,
}: {
  channel: Channel;
  onIssued: (channel: Channel & { secret: string }) => void;
}) {
  const [asking, setAsking] = useState(false);
  const issue = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/notification-channels/{key}/secret', { params: { path: { key: channel.key } } })),
    onSuccess: onIssued,
  });
  if (!asking)
    return (
      <Group>
        <Button size="xs" variant="default" onClick={() => setAsking(true)}>
          New signing secret
        </Button>
      </Group>
    );
  return (
    <Alert color="orange" title="Generate a new signing secret?">
      <Text size="sm">
        Deliveries are signed with the new one at once: the receiver must be given it, or it will refuse them.
      </Text>
      {issue.error && (
        <Text size="sm" c="red" role="alert" mt="xs">
          {issue.error.message}
        </Text>
      )}
      <Group gap="xs" mt="sm">
        <Button size="xs" color="orange" loading={issue.isPending} onClick={() => issue.mutate()}>
          Generate it
        </Button>
        <Button size="xs" variant="default" onClick={() => setAsking(false)}>
          Keep the current one
        </Button>
      </Group>
    </Alert>
  );
}
