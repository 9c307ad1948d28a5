// The mark of an object warden.yaml manages: the API refuses to change it (409), so screens show why editing is off.
import { Badge, Code, Group, Text, Tooltip } from '@mantine/core';

export function ManagedBadge({ managedBy }: { managedBy: string | null | undefined }) {
  if (managedBy !== 'config') return null;
  return (
    <Tooltip label="Change it in warden.yaml; the dashboard and the API cannot edit it." withArrow>
      <Badge
        variant="light"
        color="gray"
        size="sm"
        tt="none"
        tabIndex={0}
        aria-label="Managed by warden.yaml: change it in the file"
      >
        warden.yaml
      </Badge>
    </Tooltip>
  );
}

/** An object's name, its warden.yaml mark when it has one, and its key under them: the first cell of a list's row. */
export function NameWithKey({
  name,
  objectKey,
  managedBy,
}: {
  name: string;
  objectKey: string;
  managedBy: string | null | undefined;
}) {
  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {name}
        </Text>
        <ManagedBadge managedBy={managedBy} />
      </Group>
      <Code>{objectKey}</Code>
    </>
  );
}
