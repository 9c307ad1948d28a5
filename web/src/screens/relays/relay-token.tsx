// A relay token the server shows this once, with the agent's command built from it and Warden's address, and the
// monitors whose secrets a token issued through the API does not receive.
import { Alert, Button, Code, CopyButton, List, Stack, Text, Textarea } from '@mantine/core';
import type { components } from '../../api/schema';
import { ShownOnce } from '../../ui/shown-once';
import { relayRunCommand } from './relay-status';

type Withheld = components['schemas']['RotatedRelayToken']['secretsWithheld'];

export function RelayToken({
  name,
  token,
  secretsWithheld,
  onDone,
}: {
  name: string;
  token: string;
  secretsWithheld?: Withheld;
  onDone: () => void;
}) {
  // The dashboard is served on Warden's own address: the one the agent must reach.
  const command = relayRunCommand(window.location.origin, token);
  return (
    <Stack gap="sm">
      <ShownOnce label="Relay token" value={token} onDone={onDone}>
        The token of the relay “{name}”. The agent sends it with every request; a new token replaces this one at once.
      </ShownOnce>
      <Textarea
        label="Run the agent inside your network"
        description="The token is in this command too: prefer an environment file (mode 0600) for a service, as docs/relay.md shows."
        value={command}
        readOnly
        rows={3}
        onFocus={(e) => e.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <div>
        <CopyButton value={command}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'default'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
              aria-live="polite"
            >
              {copied ? 'Copied' : 'Copy the command'}
            </Button>
          )}
        </CopyButton>
      </div>
      {secretsWithheld && secretsWithheld.length > 0 && (
        <Alert color="orange" variant="light" title="Secrets this token does not receive" role="alert">
          <Text size="sm" mb="xs">
            The API never shows secrets, so the relay gets none of those set before this token. Send each again in full
            (edit the monitor) or apply warden.yaml; until then the relay reports these monitors failed:
          </Text>
          <List size="sm">
            {secretsWithheld.map((m) => (
              <List.Item key={m.id}>
                {m.name} (<Code>{m.key}</Code>): {m.fields.join(', ')}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
