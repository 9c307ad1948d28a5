// A channel form's state: its type and that type's config fields, the rule fields, name, key, switch and values, and
// the bodies the API takes to create or change the channel.
import { useMemo, useState } from 'react';
import type { components } from '../../api/schema';
import { organizationKey } from '../setup';
import {
  allFields,
  type FieldValue,
  type FormValues,
  fieldsOf,
  initialValues,
  type JsonSchema,
  toJson,
  withChoices,
} from './schema-form-model';

export type Channel = components['schemas']['NotificationChannel'];
export type ChannelTypes = components['schemas']['NotificationChannelTypes'];
type ChannelType = Channel['type'];

export function useChannelDraft(types: ChannelTypes, channel: Channel | undefined) {
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'discord');
  const definition = types.types.find((t) => t.id === type);
  const configFields = useMemo(() => configFieldsOf(definition), [definition]);
  const ruleFields = useMemo(
    () =>
      withChoices(
        fieldsOf(types.rules as JsonSchema, 'rules'),
        'rules.events',
        types.events.map((e) => ({ value: e.kind, label: e.label, description: e.description })),
        'All events',
      ),
    [types.rules, types.events],
  );
  const [name, setName] = useState(channel?.name ?? '');
  const [key, setKey] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(channel?.enabled ?? true);
  const [values, setValues] = useState<FormValues>(() => ({
    ...initialValues(configFields, channel?.config),
    ...initialValues(ruleFields, channel ? (channel.rules as Record<string, unknown>) : undefined),
  }));
  const [template, setTemplate] = useState<MessageTemplate>(() => storedTemplate(channel));
  const shownKey = channel?.key ?? key ?? organizationKey(name);
  const fieldNames = useMemo(
    () => [
      'key',
      'name',
      'type',
      'enabled',
      'config',
      'rules',
      'config.template.title',
      'config.template.body',
      ...allFields([...configFields, ...ruleFields]).map((f) => f.name),
    ],
    [configFields, ruleFields],
  );

  const change = (field: string, value: FieldValue) => setValues((v) => ({ ...v, [field]: value }));
  const chooseType = (next: string | null) => {
    if (!next || next === type) return;
    const nextDefinition = types.types.find((t) => t.id === next);
    const nextFields = configFieldsOf(nextDefinition);
    // Another type has other config fields: start them afresh, keep the rules.
    setValues((v) => ({
      ...Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('config.'))),
      ...initialValues(nextFields, undefined),
    }));
    setType(next as ChannelType);
  };

  const patchBody = (stored: Channel) => ({
    name: name.trim(),
    enabled,
    config: {
      ...toJson(configFields, values, stored.config),
      // null removes a stored template whose fields were emptied.
      template: templateJson(template) ?? ((stored.config as StoredConfig).template ? null : undefined),
    },
    rules: toJson(ruleFields, values),
  });
  // The body's shape depends on `type`, which the generated union checks per variant: built from the schema at run time.
  const createBody = () =>
    ({
      key: shownKey,
      name: name.trim(),
      type,
      enabled,
      config: { ...toJson(configFields, values), template: templateJson(template) },
      rules: toJson(ruleFields, values),
    }) as components['schemas']['NotificationChannelCreate'];

  return {
    type,
    typeLabel: definition?.label ?? type,
    configFields,
    ruleFields,
    name,
    setName,
    setKey,
    enabled,
    setEnabled,
    values,
    template,
    setTemplate,
    shownKey,
    fieldNames,
    change,
    chooseType,
    patchBody,
    createBody,
  };
}

export type ChannelDraft = ReturnType<typeof useChannelDraft>;

/** A channel's message template as its inputs hold it: both parts as text, empty when unset. */
export interface MessageTemplate {
  title: string;
  body: string;
}

type StoredConfig = { template?: Partial<MessageTemplate> };

function storedTemplate(channel: Channel | undefined): MessageTemplate {
  const stored = (channel?.config as StoredConfig | undefined)?.template;
  return { title: stored?.title ?? '', body: stored?.body ?? '' };
}

/** The template the API takes: the parts that say something, none when neither does. */
export function templateJson(template: MessageTemplate): Partial<MessageTemplate> | undefined {
  const title = template.title.trim();
  const body = template.body.trim() === '' ? '' : template.body;
  if (!title && !body) return undefined;
  return { ...(title ? { title } : {}), ...(body ? { body } : {}) };
}

/** A type's config fields (the message template has its own section): secrets masked, and marked where Warden generates them when left empty. */
function configFieldsOf(definition: ChannelTypes['types'][number] | undefined) {
  return fieldsOf(
    (definition?.config ?? {}) as JsonSchema,
    'config',
    definition?.secrets ?? [],
    definition?.generated ?? [],
  ).filter((field) => field.name !== 'config.template');
}
