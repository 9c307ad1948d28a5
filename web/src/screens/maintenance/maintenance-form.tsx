// Schedules a maintenance window or changes one: page, title, description, start and end (in the browser's time zone,
// named on the fields), the components it covers and the monitors it covers wherever they are shown.
import { Checkbox, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, call } from '../../api/client';
import { maintenanceChanged, type OrganizationMaintenance } from '../../api/maintenance';
import { useOrganizationKey } from '../../api/organization';
import { pagesQuery } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { FormFooter } from '../incidents/incident-forms';
import { ComponentsSelect, PageSelect } from '../page/page-filter';
import { browserTimeZone, fromLocalInput, toLocalInput } from './local-time';
import { MonitorsPicker } from './monitors-picker';
import { repeatsOf, slotsOf } from './repeats';
import { RepeatsFields } from './repeats-fields';

const FIELDS = [
  'title',
  'description',
  'startsAt',
  'endsAt',
  'recurrence',
  'components',
  'monitors',
  'announce',
] as const;
const HOUR = 3_600_000;

export function MaintenanceForm({
  existing,
  initialPage,
  onDone,
}: {
  existing?: OrganizationMaintenance;
  initialPage?: string | undefined;
  onDone: () => void;
}) {
  const org = useOrganizationKey();
  const pages = useQuery(pagesQuery(org));
  const [slug, setSlug] = useState<string | undefined>(
    existing?.page.slug ?? initialPage ?? (pages.data?.pages.length === 1 ? pages.data.pages[0]?.slug : undefined),
  );
  const [title, setTitle] = useState(existing?.title ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  // A new window: the next full hour, for an hour.
  const [startsAt, setStartsAt] = useState(() =>
    toLocalInput(existing?.startsAt ?? Math.ceil(Date.now() / HOUR) * HOUR),
  );
  const [endsAt, setEndsAt] = useState(() =>
    toLocalInput(existing?.endsAt ?? Math.ceil(Date.now() / HOUR) * HOUR + HOUR),
  );
  const [components, setComponents] = useState<string[]>(existing?.components ?? []);
  const [monitors, setMonitors] = useState<string[]>(existing?.monitors ?? []);
  const [announce, setAnnounce] = useState(existing?.announce ?? true);
  const [repeats, setRepeats] = useState(() => repeatsOf(existing?.recurrence, browserTimeZone()));
  const save = useSaveMaintenance(onDone, () => {
    if (!slug) throw new Error('Choose the page the maintenance is on.');
    const recurrence = slotsOf(repeats);
    // A recurring window's series runs from now (or as stored) and is open-ended: the times are the occurrences'.
    const times: { startsAt?: number; endsAt?: number } = {};
    if (!recurrence) [times.startsAt, times.endsAt] = windowOf(startsAt, endsAt);
    else if (!existing?.recurrence) times.startsAt = Date.now();
    const common = { title: title.trim(), ...times, components, monitors, announce };
    const text = description.trim();
    if (existing)
      return call(
        api.PATCH('/api/v1/pages/{slug}/maintenance/{id}', {
          params: { path: { slug, id: existing.id } },
          body: {
            ...common,
            description: text || null,
            ...(recurrence || existing.recurrence ? { recurrence } : {}),
          },
        }),
      );
    return call(
      api.POST('/api/v1/pages/{slug}/maintenance', {
        params: { path: { slug } },
        body: { ...common, ...(text ? { description: text } : {}), ...(recurrence ? { recurrence } : {}) },
      }),
    );
  });
  const errors = save.error ? formErrors(save.error, FIELDS) : null;
  return (
    <form
      aria-label={existing ? `Edit ${existing.title}` : 'Schedule maintenance'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        {!existing && (
          <PageSelect
            required
            value={slug}
            onChange={(next) => {
              setSlug(next);
              setComponents([]);
            }}
          />
        )}
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.fields.title}
          data-autofocus
        />
        <RepeatsFields value={repeats} onChange={setRepeats} error={errors?.fields.recurrence} />
        {repeats.mode === 'none' && (
          <WindowFields
            startsAt={startsAt}
            setStartsAt={setStartsAt}
            endsAt={endsAt}
            setEndsAt={setEndsAt}
            errors={errors?.fields}
          />
        )}
        <Textarea
          label="Description"
          rows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors?.fields.description}
        />
        <ComponentsSelect
          label="Affected components"
          slug={slug}
          value={components}
          onChange={setComponents}
          error={errors?.fields.components}
        />
        <MonitorsPicker value={monitors} onChange={setMonitors} error={errors?.fields.monitors} />
        <Checkbox
          label="Announce start and end to channels and subscribers"
          description="Off: a quiet window (e.g. a daily restart); it still shows on the page."
          checked={announce}
          onChange={(e) => setAnnounce(e.currentTarget.checked)}
        />
        <FormFooter
          error={errors?.message ?? null}
          failTitle={existing ? 'Not saved' : 'Not scheduled'}
          busy={save.isPending}
          submit={existing ? 'Save maintenance' : 'Schedule'}
          onCancel={onDone}
        />
      </Stack>
    </form>
  );
}

/** Saving the form: the request `send` makes, then the organization's maintenance lists refreshed and the form done. */
function useSaveMaintenance(onDone: () => void, send: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await maintenanceChanged(queryClient, org);
      onDone();
    },
  });
}

/** The window's start and end in the browser's time zone, named on the fields. */
function WindowFields({
  startsAt,
  setStartsAt,
  endsAt,
  setEndsAt,
  errors,
}: {
  startsAt: string;
  setStartsAt: (value: string) => void;
  endsAt: string;
  setEndsAt: (value: string) => void;
  errors: Partial<Record<'startsAt' | 'endsAt', string>> | undefined;
}) {
  const zone = browserTimeZone();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      <TextInput
        type="datetime-local"
        label={`Starts (${zone})`}
        required
        value={startsAt}
        onChange={(e) => setStartsAt(e.currentTarget.value)}
        error={errors?.startsAt}
      />
      <TextInput
        type="datetime-local"
        label={`Ends (${zone})`}
        required
        value={endsAt}
        onChange={(e) => setEndsAt(e.currentTarget.value)}
        error={errors?.endsAt}
      />
    </SimpleGrid>
  );
}

/** The window's start and end as times, or the problem the API would give for a field left empty. */
function windowOf(startsAt: string, endsAt: string): [number, number] {
  const starts = fromLocalInput(startsAt);
  const ends = fromLocalInput(endsAt);
  const missing = [
    ...(starts === null ? [{ path: 'body.startsAt', message: 'enter a date and time' }] : []),
    ...(ends === null ? [{ path: 'body.endsAt', message: 'enter a date and time' }] : []),
  ];
  if (starts === null || ends === null)
    throw new ApiError(400, {
      title: 'Invalid request',
      detail: 'The request has invalid fields.',
      errors: missing,
    });
  return [starts, ends];
}
