// The signed-in layout: a header (menu button on phones, organization, light/dark, user menu), the navigation, and
// the screen. A skip link lets keyboard users go straight to the screen.
import { Anchor, AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useOrganization, useSettledOrganization } from '../api/organization';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LiveIndicator } from './live-indicator';
import { Navigation } from './navigation';
import { OrganizationSwitcher } from './organization-switcher';
import { UserMenu } from './user-menu';

export function DashboardShell(): ReactNode {
  const { me, organization, key } = useOrganization();
  useSettledOrganization(key);
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <Anchor href="#main" className="warden-skip-link">
        Skip to content
      </Anchor>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Text fw={700} component="span">
              Warden
            </Text>
            <OrganizationSwitcher me={me} current={organization?.key} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LiveIndicator organization={organization?.key} />
            <ColorSchemeToggle />
            <UserMenu me={me} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <Navigation onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
