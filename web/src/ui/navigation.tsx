// The dashboard's navigation: every screen of an organization, settings grouped; one entry per screen of router.tsx.
import { NavLink } from '@mantine/core';
import { RouterNavLink } from './router-link';

export function Navigation({ onNavigate }: { onNavigate: () => void }) {
  return (
    <nav aria-label="Dashboard">
      <RouterNavLink to="/monitors" label="Monitors" onClick={onNavigate} />
      <RouterNavLink to="/pages" label="Pages" onClick={onNavigate} />
      <RouterNavLink to="/incidents" label="Incidents" onClick={onNavigate} />
      <RouterNavLink to="/maintenance" label="Maintenance" onClick={onNavigate} />
      <RouterNavLink to="/reports" label="Reports" onClick={onNavigate} />
      <RouterNavLink to="/alerts" label="Alerts" onClick={onNavigate} />
      <RouterNavLink to="/relays" label="Relays" onClick={onNavigate} />
      <RouterNavLink to="/panels" label="Panels" onClick={onNavigate} />
      <RouterNavLink to="/notifications" label="Notifications" onClick={onNavigate} />
      <NavLink label="Settings" component="button" defaultOpened>
        <RouterNavLink to="/settings/api-keys" label="API keys" onClick={onNavigate} />
        <RouterNavLink to="/settings/members" label="Members" onClick={onNavigate} />
        <RouterNavLink to="/settings/audit-log" label="Audit log" onClick={onNavigate} />
        <RouterNavLink to="/settings/organization" label="Organization" onClick={onNavigate} />
      </NavLink>
    </nav>
  );
}
