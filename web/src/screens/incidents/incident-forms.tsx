// The incident forms: open one on a page, post an update (status, impact, message; "resolve" is an update), and change
// its title, impact and affected components.
import { Alert, Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import {
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  type IncidentImpact,
  type IncidentStatus,
  incidentsChanged,
  type OrganizationIncident,
} from '../../api/incidents';
import { useOrganizationKey } from '../../api/organization';
import { pagesQuery } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { ComponentsSelect, PageSelect } from '../page/page-filter';

const NEW_FIELDS = ['page', 'title', 'impact', 'status', 'message', 'components'] as const;

export function NewIncidentForm({ initialPage, onDone }: { initialPage: string | undefined; onDone: () => void }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const pages = useQuery(pagesQuery(org));
  const [slug, setSlug] = useState<string | undefined>(
    initialPage ?? (pages.data?.pages.length === 1 ? pages.data.pages[0]?.slug : undefined),
  );
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<IncidentImpact>('minor');
  const [status, setStatus] = useState<IncidentStatus>('investigating');
  const [message, setMessage] = useState('');
  const [components, setComponents] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => {
      if (!slug) throw new Error('Choose the page the incident is on.');
      return call(
        api.POST('/api/v1/pages/{slug}/incidents', {
          params: { path: { slug } },
          body: { title: title.trim(), impact, status, message: message.trim(), components },
        }),
      );
    },
    onSuccess: async () => {
      await incidentsChanged(queryClient, org);
      onDone();
    },
  });
  const errors = create.error ? formErrors(create.error, NEW_FIELDS) : null;
  return (
    <form
      aria-label="Open an incident"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack gap="sm">
        <PageSelect
          required
          value={slug}
          onChange={(next) => {
            setSlug(next);
            setComponents([]);
          }}
        />
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.fields.title}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Impact"
            allowDeselect={false}
            data={INCIDENT_IMPACTS}
            value={impact}
            onChange={(v) => v && setImpact(v as IncidentImpact)}
            error={errors?.fields.impact}
          />
          <Select
            label="Status"
            allowDeselect={false}
            data={INCIDENT_STATUSES}
            value={status}
            onChange={(v) => v && setStatus(v as IncidentStatus)}
            error={errors?.fields.status}
          />
        </SimpleGrid>
        <Textarea
          label="Message"
          description="The first entry of the timeline, shown on the page."
          required
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          error={errors?.fields.message}
        />
        <ComponentsSelect
          label="Affected components"
          slug={slug}
          value={components}
          onChange={setComponents}
          error={errors?.fields.components}
        />
        <FormFooter
          error={errors?.message ?? null}
          failTitle="Not opened"
          busy={create.isPending}
          submit="Open incident"
          onCancel={onDone}
        />
      </Stack>
    </form>
  );
}

const UPDATE_FIELDS = ['status', 'message', 'impact'] as const;

export function IncidentUpdateForm({
  incident,
  resolve,
  onDone,
}: {
  incident: OrganizationIncident;
  resolve: boolean;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [status, setStatus] = useState<IncidentStatus>(resolve ? 'resolved' : incident.status);
  const [impact, setImpact] = useState<IncidentImpact>(incident.impact);
  const [message, setMessage] = useState(resolve ? 'This incident has been resolved.' : '');
  const post = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/incidents/{id}/updates', {
          params: { path: { id: incident.id } },
          body: { status, message: message.trim(), ...(impact !== incident.impact ? { impact } : {}) },
        }),
      ),
    onSuccess: async () => {
      await incidentsChanged(queryClient, org);
      onDone();
    },
  });
  const errors = post.error ? formErrors(post.error, UPDATE_FIELDS) : null;
  return (
    <form
      aria-label={`Update ${incident.title}`}
      onSubmit={(e) => {
        e.preventDefault();
        post.mutate();
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Status"
            allowDeselect={false}
            data={INCIDENT_STATUSES}
            value={status}
            onChange={(v) => v && setStatus(v as IncidentStatus)}
            error={errors?.fields.status}
          />
          <Select
            label="Impact"
            allowDeselect={false}
            data={INCIDENT_IMPACTS}
            value={impact}
            onChange={(v) => v && setImpact(v as IncidentImpact)}
            error={errors?.fields.impact}
          />
        </SimpleGrid>
        <Textarea
          label="Message"
          required
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          error={errors?.fields.message}
          data-autofocus
        />
        <FormFooter
          error={errors?.message ?? null}
          failTitle="Not posted"
          busy={post.isPending}
          submit={status === 'resolved' && incident.status !== 'resolved' ? 'Resolve incident' : 'Post update'}
          onCancel={onDone}
        />
      </Stack>
    </form>
  );
}

const EDIT_FIELDS = ['title', 'impact', 'components'] as const;

export function EditIncidentForm({ incident, onDone }: { incident: OrganizationIncident; onDone: () => void }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [title, setTitle] = useState(incident.title);
  const [impact, setImpact] = useState<IncidentImpact>(incident.impact);
  const [components, setComponents] = useState<string[]>(incident.components);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/api/v1/pages/{slug}/incidents/{id}', {
          params: { path: { slug: incident.page.slug, id: incident.id } },
          body: { title: title.trim(), impact, components },
        }),
      ),
    onSuccess: async () => {
      await incidentsChanged(queryClient, org);
      onDone();
    },
  });
  const errors = save.error ? formErrors(save.error, EDIT_FIELDS) : null;
  return (
    <form
      aria-label={`Edit ${incident.title}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.fields.title}
          data-autofocus
        />
        <Select
          label="Impact"
          allowDeselect={false}
          data={INCIDENT_IMPACTS}
          value={impact}
          onChange={(v) => v && setImpact(v as IncidentImpact)}
          error={errors?.fields.impact}
        />
        <ComponentsSelect
          label="Affected components"
          slug={incident.page.slug}
          value={components}
          onChange={setComponents}
          error={errors?.fields.components}
        />
        <FormFooter
          error={errors?.message ?? null}
          failTitle="Not saved"
          busy={save.isPending}
          submit="Save incident"
          onCancel={onDone}
        />
      </Stack>
    </form>
  );
}

export function FormFooter({
  error,
  failTitle,
  busy,
  submit,
  onCancel,
}: {
  error: string | null;
  failTitle: string;
  busy: boolean;
  submit: string;
  onCancel: () => void;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" title={failTitle}>
          {error}
        </Alert>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {submit}
        </Button>
      </Group>
    </>
  );
}
