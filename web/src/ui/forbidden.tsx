// What a screen shows when the caller's role may not see it (or the API answered 403): who may, and the API's word.
import { Alert, Text } from '@mantine/core';
import { ApiError } from '../api/client';
import type { Role } from '../api/types';

const WHO: Record<Role, string> = {
  viewer: 'members',
  editor: 'editors, admins and owners',
  admin: 'admins and owners',
  owner: 'owners',
};

export function Forbidden({
  what,
  least,
  role,
  error,
}: {
  what: string;
  least: Role;
  role: Role | undefined;
  error?: unknown;
}) {
  const detail = error instanceof ApiError ? error.detail : undefined;
  return (
    <Alert color="gray" variant="light" title={`Only ${WHO[least]} ${what}`} role="status" my="md">
      <Text size="sm">
        Your role in this organization is {role ?? 'none'}. Ask an owner or an admin if you need it.
        {detail ? ` (${detail})` : ''}
      </Text>
    </Alert>
  );
}
