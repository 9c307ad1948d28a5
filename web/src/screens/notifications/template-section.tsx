// A channel's message template: title and body (Mustache over the fields the server lists), and a live preview over a
// sample event of every kind from POST /api/v1/notification-channels/preview-template, as the channel's type would send
// it (cut to that type's limits, marked when cut), its refusals under the fields.
import { Accordion, Badge, Code, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { templatePreviewQuery } from '../../api/notification-channels';
import { useOrganizationKey } from '../../api/organization';
import { formErrors } from '../../ui/form-errors';
import { type ChannelDraft, templateJson } from './channel-draft';

const PREVIEW_FIELDS = ['template.title', 'template.body'] as const;

export function TemplateSection({ draft, errors }: { draft: ChannelDraft; errors: Partial<Record<string, string>> }) {
  const { template, setTemplate, type } = draft;
  const [debounced] = useDebouncedValue(template, 400);
  const preview = useQuery(templatePreviewQuery(useOrganizationKey(), type, templateJson(debounced) ?? {}));
  const refused = preview.error ? formErrors(preview.error, PREVIEW_FIELDS) : null;
  const fields = preview.data?.fields ?? [];
  const limits = preview.data?.limits;
  const channel = preview.data?.channel;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Message template
      </Title>
      <Text size="sm" c="dimmed">
        Optional: your own title and text instead of Warden's, in Mustache, such as{' '}
        <Code>{'{{kindLabel}}: {{monitor.name}}'}</Code>. The channel keeps its look and escapes the text for its
        format.
      </Text>
      {channel && <ChannelLimits label={channel.label} limits={channel.limits} />}
      <TextInput
        label="Title template"
        description={
          limits ? `One line, at most ${limits.title} characters rendered. Empty: Warden's title.` : undefined
        }
        value={template.title}
        onChange={(e) => setTemplate({ ...template, title: e.currentTarget.value })}
        error={errors['config.template.title'] ?? refused?.fields['template.title']}
        ff="monospace"
      />
      <Textarea
        label="Body template"
        description={
          limits ? `At most ${limits.body} characters rendered. Empty: Warden's text (reason and facts).` : undefined
        }
        value={template.body}
        onChange={(e) => setTemplate({ ...template, body: e.currentTarget.value })}
        error={errors['config.template.body'] ?? refused?.fields['template.body']}
        autosize
        minRows={3}
        maxRows={12}
        ff="monospace"
      />
      <Accordion variant="separated" multiple defaultValue={['preview']}>
        <Accordion.Item value="fields">
          <Accordion.Control>Fields</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={2}>
              {fields.map((field) => (
                <Text key={field.name} size="xs">
                  <Code>{`{{${field.name}}}`}</Code> {field.description}
                </Text>
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="preview">
          <Accordion.Control>Preview</Accordion.Control>
          <Accordion.Panel>
            {refused?.message && (
              <Text size="sm" c="red" role="alert">
                {refused.message}
              </Text>
            )}
            {/* Focusable, so a keyboard scrolls it too. */}
            <Stack
              component="section"
              gap="xs"
              aria-label="Template preview"
              tabIndex={0}
              mah={420}
              style={{ overflowY: 'auto' }}
            >
              {(preview.data?.samples ?? []).map((sample) => (
                <Paper key={sample.kind} withBorder p="xs" data-kind={sample.kind}>
                  <Group gap={4} mb={4}>
                    <Badge size="xs" variant="light">
                      {sample.label}
                    </Badge>
                    {(sample.clipped.title || sample.clipped.body) && (
                      <Badge size="xs" variant="light" color="orange">
                        {clippedWords(sample.clipped)}
                      </Badge>
                    )}
                  </Group>
                  {sample.title && (
                    <Text size="sm" fw={600}>
                      {sample.title}
                    </Text>
                  )}
                  {sample.body && (
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {sample.body}
                    </Text>
                  )}
                </Paper>
              ))}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}

/** What the channel type cuts to, above the fields: the preview's samples are cut the same way. */
function ChannelLimits({ label, limits }: { label: string; limits: { title: number | null; body: number | null } }) {
  const parts = [
    limits.title === null ? null : `titles at ${limits.title} characters`,
    limits.body === null ? null : `text at ${limits.body}`,
  ].filter((part) => part !== null);
  if (parts.length === 0) return null;
  return (
    <Text size="sm" c="dimmed">
      {label} cuts {parts.join(' and ')}; the preview shows what it would send.
    </Text>
  );
}

function clippedWords(clipped: { title: boolean; body: boolean }): string {
  if (clipped.title && clipped.body) return 'title and text cut';
  return clipped.title ? 'title cut' : 'text cut';
}
