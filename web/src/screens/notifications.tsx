// The Notifications screen (/app/notifications): the organization's channels (type, on or off, what they get); admins
// create and change them with a form generated from each type's JSON Schema, send a test and read a channel's delivery
// log. Channels warden.yaml manages can be tested but not changed here.
import { Button, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { channelsChanged, channelsQuery, channelTypesQuery, deliveriesChanged } from '../api/notification-channels';
import { useOrganizationKey } from '../api/organization';
import { roleAtLeast, useOrganizationRole } from '../api/role';
import { QueryState } from '../ui/query-state';
import { ScreenHeader } from '../ui/screen-header';
import { ShownOnce } from '../ui/shown-once';
import { EmptyState } from '../ui/states';
import { type Channel, ChannelForm, type ChannelTypes } from './notifications/channel-form';
import { ChannelTable } from './notifications/channel-table';
import { DeliveryLog, type TestOutcome, TestResult } from './notifications/deliveries';

export default function NotificationsScreen() {
  const { role } = useOrganizationRole();
  const admin = roleAtLeast(role, 'admin');
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const channels = useQuery(channelsQuery(org));
  const types = useQuery(channelTypesQuery);
  // The form: a new channel, or the one being changed.
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [tested, setTested] = useState<{ key: string; result: TestOutcome } | null>(null);
  // A signing secret Warden generated for the channel just created: on screen until dismissed, nowhere else.
  const [generated, setGenerated] = useState<{ name: string; secret: string } | null>(null);
  const phone = useMediaQuery('(max-width: 36em)');
  const labels = new Map((types.data?.types ?? []).map((t) => [t.id, t.label]));

  const test = useMutation({
    mutationFn: (channel: Channel) =>
      call(api.POST('/api/v1/notification-channels/{key}/test', { params: { path: { key: channel.key } } })),
    onSuccess: (result, channel) => {
      setSelected(channel.key);
      setTested({ key: channel.key, result });
      void deliveriesChanged(queryClient, org, channel.key);
    },
  });
  const remove = (channel: Channel) => async () => {
    await call(api.DELETE('/api/v1/notification-channels/{key}', { params: { path: { key: channel.key } } }));
    if (selected === channel.key) setSelected(null);
    await channelsChanged(queryClient, org);
  };
  const saved = (channel: Channel & { secret?: string }) => {
    setEditing(null);
    setSelected(channel.key);
    setGenerated(channel.secret ? { name: channel.name, secret: channel.secret } : null);
    void channelsChanged(queryClient, org);
  };
  const chosen = channels.data?.channels.find((c) => c.key === selected);

  return (
    <>
      <ScreenHeader title="Notifications">
        {admin && (
          <Button onClick={() => setEditing('new')} disabled={!types.data}>
            New channel
          </Button>
        )}
      </ScreenHeader>
      <Stack gap="lg">
        <ChannelsIntro labels={types.data?.types.map((t) => t.label)} />
        {generated && <GeneratedSecret generated={generated} onDone={() => setGenerated(null)} />}
        {test.error && (
          <Text size="sm" c="red" role="alert">
            The test could not be sent: {test.error.message}
          </Text>
        )}
        <QueryState
          query={channels}
          loading="Loading channels"
          failed="Could not load the channels"
          isEmpty={(data) => data.channels.length === 0}
          empty={
            <EmptyState
              title="No channels yet"
              description={
                admin ? 'Create one to hear about outages.' : 'Channels are declared in warden.yaml or by an admin.'
              }
            />
          }
        >
          {(data) => (
            <ChannelTable
              channels={data.channels}
              admin={admin}
              labels={labels}
              actions={{
                testing: test.isPending ? test.variables?.key : undefined,
                onTest: (channel) => test.mutate(channel),
                selected,
                onSelect: setSelected,
                onEdit: setEditing,
                typesLoaded: types.data !== undefined,
                onRemove: remove,
              }}
            />
          )}
        </QueryState>
        {admin && chosen && (
          <ChannelDeliveries channel={chosen} tested={tested?.key === chosen.key ? tested.result : undefined} />
        )}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New notification channel' : `Edit ${editing?.name ?? ''}`}
        size="lg"
        fullScreen={phone}
        closeButtonProps={{ 'aria-label': 'Close the form' }}
      >
        {editing !== null && types.data && (
          <ChannelForm
            key={editing === 'new' ? 'new' : editing.key}
            types={types.data as ChannelTypes}
            channel={editing === 'new' ? undefined : editing}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </>
  );
}

/** What channels are for, naming every type the server offers once they are loaded. */
function ChannelsIntro({ labels }: { labels: string[] | undefined }) {
  return (
    <Text size="sm" c="dimmed">
      Channels carry monitor, relay, incident, maintenance and certificate events to{' '}
      {labels
        ? new Intl.ListFormat('en', { type: 'disjunction' }).format(labels)
        : 'chats, pagers, phones, email or a signed webhook'}
      .
    </Text>
  );
}

/** The signing secret Warden made for the webhook just created: shown this once. */
function GeneratedSecret({ generated, onDone }: { generated: { name: string; secret: string }; onDone: () => void }) {
  return (
    <ShownOnce
      label="Signing secret"
      value={generated.secret}
      onDone={onDone}
      kept="Warden keeps it to sign with, but will not show it again: to change it, edit the channel and enter a new one."
    >
      {generated.name} signs every delivery with this secret: give it to the receiver, which verifies the
      webhook-signature header with it (Standard Webhooks).
    </ShownOnce>
  );
}

/** The chosen channel's delivery log, under the result of its last test when it was just tested. */
function ChannelDeliveries({ channel, tested }: { channel: Channel; tested: TestOutcome | undefined }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="channel-deliveries">
      <Title order={2} size="h4" id="channel-deliveries" mb="sm">
        Deliveries of {channel.name}
      </Title>
      <Stack gap="sm">
        {tested && <TestResult result={tested} channelName={channel.name} />}
        <DeliveryLog channelKey={channel.key} channelName={channel.name} />
      </Stack>
    </Paper>
  );
}
