// A monitor form's state: the chosen type, name, key, place, relay, other locations and quorum, and parent, the config and shared fields' values,
// and the bodies "Create", "Save changes" and "Test this check" send; and the save and test mutations with their
// problem.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { monitorsChanged, PLAYER_TYPES } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import { relaysQuery } from '../../api/relays';
import type { components } from '../../api/schema';
import type { MonitorView } from '../../api/types';
import { playerAlertsJson, playerAlertValues } from './player-alerts';
import { configOf, type FieldValue, type FormField, fieldsOf, initialValue, type JsonSchema } from './schema-form';

export type MonitorTypes = components['schemas']['MonitorTypes'];
type CreateBody = components['schemas']['MonitorCreate'];
type PatchBody = components['schemas']['MonitorPatch'];

/** The shared fields the generic part of the form shows (key, name, type, runOn and relay have their own inputs; pausing is on the monitor's screen). */
const SHARED = ['intervalSec', 'timeoutMs', 'retries', 'degradedLatencyMs', 'tags', 'notify'];
/** Meaningless for push monitors, which are not probed. */
const PROBE_ONLY = ['intervalSec', 'timeoutMs', 'retries'];

export function useMonitorDraft(types: MonitorTypes, monitor: MonitorView | undefined) {
  const org = useOrganizationKey();
  const [typeId, setTypeId] = useState<string>(monitor?.type ?? '');
  const type = types.types.find((t) => t.id === typeId);
  const configFields = useMemo(() => (type ? fieldsOf(type.config as JsonSchema, type.secrets) : []), [type]);
  const sharedFields = useMemo(
    () =>
      fieldsOf(types.fields as JsonSchema).filter(
        (f) => SHARED.includes(f.name) && (type?.probed !== false || !PROBE_ONLY.includes(f.name)),
      ),
    [types.fields, type],
  );
  const [name, setName] = useState(monitor?.name ?? '');
  const [key, setKey] = useState<string | null>(null);
  const [runOn, setRunOn] = useState<string>(monitor?.runOn ?? '');
  const [relay, setRelay] = useState(monitor?.relayKey ?? '');
  const [config, setConfig] = useState<Record<string, FieldValue>>(() => valuesOf(configFields, monitor?.config));
  const [shared, setShared] = useState<Record<string, FieldValue>>(() =>
    valuesOf(sharedFields, monitor as Record<string, unknown> | undefined),
  );
  const [locations, setLocations] = useState<string[]>(monitor?.locations ?? []);
  const [quorum, setQuorum] = useState<number | ''>(monitor?.quorum ?? '');
  const [dependsOn, setDependsOn] = useState<string | null>(monitor?.dependsOn ?? null);
  const [playerAlerts, setPlayerAlerts] = useState(() => playerAlertValues(monitor?.playerAlerts));
  const [problem, setProblem] = useState<unknown>(null);
  /**
   * Whether the form has player alerts (and sends them): the types whose checks report players, and any monitor that
   * already has some (set through the API or an import), so they are never hidden from it.
   */
  const reportsPlayers = PLAYER_TYPES.has(typeId) || (monitor?.playerAlerts ?? null) !== null;

  const place = runOn || type?.runsOn[0] || 'edge';
  const monitorKeyValue = monitor?.key ?? key ?? keyFrom(name);
  // The relay picker and the other locations offer the organization's relays.
  const relays = useQuery({ ...relaysQuery(org), staleTime: 60_000, enabled: type !== undefined });
  const multiLocation = place !== 'push' && locations.length > 0;

  const chooseType = (id: string) => {
    const next = types.types.find((t) => t.id === id);
    setTypeId(id);
    setRunOn('');
    setConfig(next ? valuesOf(fieldsOf(next.config as JsonSchema, next.secrets), undefined) : {});
    setProblem(null);
  };

  /** The form as a create body: what "Create" and "Test this check" send (a test of a stored monitor uses its key and type). */
  const createBody = (): CreateBody => {
    const body: Record<string, unknown> = {
      key: monitorKeyValue,
      name: name.trim(),
      type: typeId,
      runOn: place,
      config: configOf(configFields, config, false),
    };
    if (place === 'relay' && relay) body['relay'] = relay;
    Object.assign(body, configOf(sharedFields, shared, false));
    const alerts = reportsPlayers ? playerAlertsJson(playerAlerts) : null;
    if (alerts) body['playerAlerts'] = alerts;
    if (dependsOn) body['dependsOn'] = dependsOn;
    if (multiLocation) body['locations'] = locations;
    if (multiLocation && quorum !== '') body['quorum'] = quorum;
    return body as CreateBody;
  };
  const patchBody = (): PatchBody => ({
    name: name.trim(),
    runOn: place as PatchBody['runOn'],
    relay: place === 'relay' ? relay || undefined : null,
    config: configOf(configFields, config, true),
    ...configOf(sharedFields, shared, true),
    // None removes the parent (null).
    dependsOn,
    // None removes them (null); a push monitor has none to send.
    ...(place !== 'push' || (monitor?.locations?.length ?? 0) > 0
      ? { locations: multiLocation ? locations : null, quorum: multiLocation && quorum !== '' ? quorum : null }
      : {}),
    // None set removes them (null).
    ...(reportsPlayers ? { playerAlerts: playerAlertsJson(playerAlerts) as PatchBody['playerAlerts'] } : {}),
  });

  return {
    typeId,
    type,
    configFields,
    sharedFields,
    name,
    setName,
    setKey,
    setRunOn,
    relay,
    setRelay,
    config,
    setConfig,
    shared,
    setShared,
    reportsPlayers,
    playerAlerts,
    setPlayerAlerts,
    locations,
    setLocations,
    quorum,
    setQuorum,
    dependsOn,
    setDependsOn,
    problem,
    setProblem,
    place,
    monitorKeyValue,
    relays,
    chooseType,
    createBody,
    patchBody,
  };
}

export type MonitorDraft = ReturnType<typeof useMonitorDraft>;

/** Saving (a new monitor's push token kept to be shown once, else on to the monitor) and testing the check. */
export function useMonitorMutations(draft: MonitorDraft, monitor: MonitorView | undefined) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [created, setCreated] = useState<{ id: string; name: string; token: string } | null>(null);
  const save = useMutation({
    mutationFn: async () => {
      if (monitor)
        return {
          monitor: await call(
            api.PATCH('/api/v1/monitors/{id}', { params: { path: { id: monitor.id } }, body: draft.patchBody() }),
          ),
          pushToken: null,
        };
      const answer = await call(api.POST('/api/v1/monitors', { body: draft.createBody() }));
      return { monitor: answer, pushToken: answer.pushToken };
    },
    onMutate: () => draft.setProblem(null),
    onError: draft.setProblem,
    onSuccess: async ({ monitor: saved, pushToken }) => {
      await monitorsChanged(queryClient, org);
      if (pushToken) setCreated({ id: saved.id, name: saved.name, token: pushToken });
      else void navigate({ to: '/monitors/$monitorId', params: { monitorId: saved.id } });
    },
  });
  const test = useMutation({
    mutationFn: () => call(api.POST('/api/v1/monitors/test', { body: draft.createBody() })),
    onMutate: () => draft.setProblem(null),
    onError: draft.setProblem,
  });
  return { save, test, created };
}

function valuesOf(
  fields: readonly FormField[],
  stored: Record<string, unknown> | undefined,
): Record<string, FieldValue> {
  return Object.fromEntries(fields.map((f) => [f.name, initialValue(f, stored?.[f.name] ?? undefined)]));
}

/** A key proposed from the name: "Lobby server #2" → "lobby-server-2". */
function keyFrom(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}
