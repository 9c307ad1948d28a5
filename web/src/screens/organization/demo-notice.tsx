// The built-in demo, offered for removal to whoever owns every other organization of the server (the operator): it is
// paused and off the public pages once they have an organization, and kept until removed here or by `warden demo remove`.
import { Code, Paper, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { demoQuery, removeDemo } from '../../api/demo';
import { ConfirmButton } from '../../ui/confirm-button';

export function DemoNotice() {
  const queryClient = useQueryClient();
  const demo = useQuery(demoQuery);
  if (!demo.data?.present || !demo.data.removable) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="demo-heading">
      <Title order={2} size="h4" id="demo-heading" mb="xs">
        The built-in demo
      </Title>
      <Text size="sm" mb="sm">
        The demo organization Warden loaded into the empty database is still here: paused and off the public pages, with
        its monitors and their history. Remove it when you no longer need it (or run <Code>warden demo remove</Code>).
      </Text>
      <ConfirmButton
        title="Remove the demo?"
        message="Deletes the demo organization with its monitors, page and history, for good."
        confirmLabel="Remove the demo"
        onConfirm={() => removeDemo(queryClient)}
      >
        Remove the demo…
      </ConfirmButton>
    </Paper>
  );
}
