// How the monitor screen and form name a location: "edge" is Warden itself, a relay key shows its relay's name.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useOrganizationKey } from '../../api/organization';
import { relaysQuery } from '../../api/relays';

export const EDGE = 'edge';

/** A location's name for people: the relay's name (and key) when the relay list is at hand, else the key. */
export function useLocationName(): (location: string) => string {
  const relays = useQuery({ ...relaysQuery(useOrganizationKey()), staleTime: 60_000 });
  const list = relays.data?.relays;
  // The same function while the relays stay the same: a chart drawn from its names is not drawn again.
  return useMemo(() => {
    const names = new Map((list ?? []).map((r) => [r.key, r.name]));
    return (location: string) => {
      if (location === EDGE) return 'Warden (edge)';
      const name = names.get(location);
      return name && name !== location ? `${name} (${location})` : location;
    };
  }, [list]);
}

/** "down when 2 of 3 see it down": the quorum, or the majority it defaults to, of the monitor's places. */
export function quorumText(places: number, quorum: number | null): string {
  const needed = quorum ?? Math.floor(places / 2) + 1;
  return `Down when ${needed} of ${places} ${places === 1 ? 'location sees' : 'locations see'} it down${
    quorum === null ? ' (a majority of those voting)' : ''
  }.`;
}
