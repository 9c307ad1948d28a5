// The signed-in user's menu: who is signed in, their account, and signing out.
import { Button, Menu, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { signOut } from '../api/session';
import type { Me } from '../api/types';

export function UserMenu({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="sm" aria-label={`Account menu of ${me.user.name}`}>
          <Text size="sm" truncate maw={160}>
            {me.user.name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{me.user.email}</Menu.Label>
        <Menu.Item onClick={() => void navigate({ to: '/account' })}>Account and security</Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          onClick={async () => {
            await signOut(queryClient).catch(() => {});
            await navigate({ to: '/login' });
          }}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
