// A page's own settings: title, description, language and time zone, AI policy, visitor subscriptions, whether it
// shows who is online, whether it announces server changes, whether it publishes its uptime history, its draft
// incidents, and the notification channels it names.
import { Group, MultiSelect, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { channelsQuery } from '../../api/notification-channels';
import { useOrganizationKey } from '../../api/organization';
import { type PageView, pageChanged } from '../../api/pages';
import { formErrors } from '../../ui/form-errors';
import { SaveFooter } from '../../ui/save-footer';
import { DraftIncidentsFields } from './draft-incidents-fields';
import { GameChangesSwitch } from './game-changes-switch';
import { PlayerNamesSwitch } from './player-names-switch';

const FIELDS = [
  'title',
  'description',
  'language',
  'timeZone',
  'aiPolicy',
  'subscriptions',
  'showPlayerNames',
  'announceGameChanges',
  'publishUptimeHistory',
  'showUnreachable',
  'draftIncidents',
  'notify',
] as const;

/** The shipped languages (src/domain/languages.ts), each named in itself; 'auto' is each reader's own. */
const LANGUAGES = [
  { value: 'auto', label: "Each reader's language (from their browser)" },
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'es', label: 'Español' },
  { value: 'pt-BR', label: 'Português (Brasil)' },
  { value: 'pl', label: 'Polski' },
  { value: 'ru', label: 'Русский' },
  { value: 'tr', label: 'Türkçe' },
];

/** Every IANA zone the browser knows, UTC first; the server checks the name again. */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

export function SettingsForm({ page, readOnly }: { page: PageView; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const org = useOrganizationKey();
  const [title, setTitle] = useState(page.title);
  const [description, setDescription] = useState(page.description ?? '');
  const [language, setLanguage] = useState<string>(page.language ?? 'auto');
  const [timeZone, setTimeZone] = useState(page.timeZone);
  const [aiPolicy, setAiPolicy] = useState(page.aiPolicy);
  const [subscriptions, setSubscriptions] = useState(page.subscriptions);
  const [showPlayerNames, setShowPlayerNames] = useState(page.showPlayerNames);
  const [announceGameChanges, setAnnounceGameChanges] = useState(page.announceGameChanges);
  const [publishUptimeHistory, setPublishUptimeHistory] = useState(page.publishUptimeHistory);
  const [showUnreachable, setShowUnreachable] = useState(page.showUnreachable);
  const [draftIncidents, setDraftIncidents] = useState(page.draftIncidents);
  const [notify, setNotify] = useState<string[]>(page.notify ?? []);
  const channels = useQuery({ ...channelsQuery(org), staleTime: 60_000 });
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/api/v1/pages/{slug}', {
          params: { path: { slug: page.slug } },
          body: {
            title: title.trim(),
            description: description.trim() || null,
            language: language === 'auto' ? null : (language as NonNullable<PageView['language']>),
            timeZone,
            aiPolicy,
            subscriptions,
            showPlayerNames,
            announceGameChanges,
            publishUptimeHistory,
            showUnreachable,
            draftIncidents,
            notify: notify.length > 0 ? notify : null,
          },
        }),
      ),
    onSuccess: () => pageChanged(queryClient, org, page.slug),
  });
  const errors = save.error ? formErrors(save.error, FIELDS) : null;
  const channelOptions = [...new Set([...(channels.data?.channels ?? []).map((c) => c.key), ...notify])].map((key) => ({
    value: key,
    label: channels.data?.channels.find((c) => c.key === key)?.name ?? key,
  }));
  return (
    <form
      aria-label="Page settings"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          readOnly={readOnly}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors?.fields.title}
        />
        <Textarea
          label="Description"
          rows={2}
          readOnly={readOnly}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors?.fields.description}
        />
        <LocaleFields
          language={language}
          setLanguage={setLanguage}
          timeZone={timeZone}
          setTimeZone={setTimeZone}
          readOnly={readOnly}
          errors={errors?.fields}
        />
        <Select
          label="AI policy"
          description="Whether AI assistants may read the page (its llms.txt and MCP)."
          allowDeselect={false}
          readOnly={readOnly}
          data={[
            { value: 'allow', label: 'Allow AI assistants' },
            { value: 'disallow', label: 'Keep it away from AI assistants' },
          ]}
          value={aiPolicy}
          onChange={(v) => v && setAiPolicy(v as PageView['aiPolicy'])}
          error={errors?.fields.aiPolicy}
        />
        <Switch
          label="Visitors may subscribe to incidents and maintenance"
          description={
            page.passwordProtected
              ? 'Not while a password protects the page.'
              : 'By email (when the server has SMTP) or webhook.'
          }
          checked={subscriptions}
          disabled={readOnly}
          onChange={(e) => setSubscriptions(e.currentTarget.checked)}
          error={errors?.fields.subscriptions}
        />
        <PlayerNamesSwitch state={[showPlayerNames, setShowPlayerNames]} readOnly={readOnly} errors={errors} />
        <GameChangesSwitch state={[announceGameChanges, setAnnounceGameChanges]} readOnly={readOnly} errors={errors} />
        <Switch
          label="Publish the uptime history"
          description={`A month calendar of the page's days and their incidents, at /s/${page.slug}/history.`}
          checked={publishUptimeHistory}
          disabled={readOnly}
          onChange={(e) => setPublishUptimeHistory(e.currentTarget.checked)}
          error={errors?.fields.publishUptimeHistory}
        />
        <Switch
          label="Say which parent made a component unreachable"
          description="“unreachable: Uplink is down” beside a component held behind a down parent; it names the parent on the page."
          checked={showUnreachable}
          disabled={readOnly}
          onChange={(e) => setShowUnreachable(e.currentTarget.checked)}
          error={errors?.fields.showUnreachable}
        />
        <DraftIncidentsFields
          state={[draftIncidents, setDraftIncidents]}
          readOnly={readOnly}
          error={errors?.fields.draftIncidents}
        />
        <MultiSelect
          label="Notification channels"
          description="They get the events of what the page shows."
          placeholder={notify.length === 0 ? 'None' : undefined}
          data={channelOptions}
          value={notify}
          onChange={setNotify}
          readOnly={readOnly}
          searchable
          error={errors?.fields.notify}
        />
        <SaveFooter
          error={errors?.message}
          saved={save.isSuccess}
          pending={save.isPending}
          readOnly={readOnly}
          label="Save settings"
        />
      </Stack>
    </form>
  );
}

/** The page's language and time zone, side by side. */
function LocaleFields({
  language,
  setLanguage,
  timeZone,
  setTimeZone,
  readOnly,
  errors,
}: {
  language: string;
  setLanguage: (language: string) => void;
  timeZone: string;
  setTimeZone: (timeZone: string) => void;
  readOnly: boolean;
  errors: Partial<Record<'language' | 'timeZone', string>> | undefined;
}) {
  return (
    <Group grow align="flex-start">
      <Select
        label="Language"
        description="The page's words, dates and feeds; readers can still pick another."
        allowDeselect={false}
        readOnly={readOnly}
        data={LANGUAGES}
        value={language}
        onChange={(v) => v && setLanguage(v)}
        error={errors?.language}
      />
      <Select
        label="Time zone"
        description="Dates and times on the page are shown in it."
        allowDeselect={false}
        searchable
        readOnly={readOnly}
        data={TIME_ZONES.includes(timeZone) ? TIME_ZONES : [timeZone, ...TIME_ZONES]}
        value={timeZone}
        onChange={(v) => v && setTimeZone(v)}
        error={errors?.timeZone}
      />
    </Group>
  );
}
