// Adds a Discord board to a page or changes one: its key (fixed once made), the webhook URL — write-only: an existing
// board shows the redacted one and keeps it unless a new one is typed —, the components it shows and whether it runs.
import { Stack, Switch, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type BoardView, boardsChanged, createBoard, updateBoard } from '../../api/boards';
import { useOrganizationKey } from '../../api/organization';
import { formErrors } from '../../ui/form-errors';
import { FormFooter } from '../incidents/incident-forms';
import { ComponentsSelect } from './page-filter';

const FIELDS = ['key', 'webhookUrl', 'components', 'enabled'] as const;
const WEBHOOK_HELP = 'Discord: channel settings → Integrations → Webhooks → Copy Webhook URL. Kept secret.';

export function BoardForm({ slug, board, onDone }: { slug: string; board?: BoardView; onDone: () => void }) {
  const org = useOrganizationKey();
  const queryClient = useQueryClient();
  const [key, setKey] = useState(board?.key ?? '');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [components, setComponents] = useState<string[]>(board?.components ?? []);
  const [enabled, setEnabled] = useState(board?.enabled ?? true);
  const save = useMutation({
    mutationFn: () => {
      const url = webhookUrl.trim();
      if (board)
        return updateBoard(org, slug, board.id, {
          ...(url ? { webhookUrl: url } : {}),
          // None chosen: every component of the page.
          components: components.length > 0 ? components : null,
          enabled,
        });
      return createBoard(org, slug, {
        key: key.trim(),
        webhookUrl: url,
        ...(components.length > 0 ? { components } : {}),
        enabled,
      });
    },
    onSuccess: async () => {
      await boardsChanged(queryClient, org, slug);
      if (!board) {
        setKey('');
        setComponents([]);
        setEnabled(true);
      }
      setWebhookUrl('');
      onDone();
    },
  });
  const errors = save.error ? formErrors(save.error, FIELDS) : null;
  return (
    <form
      aria-label={board ? `Edit board ${board.key}` : 'Add a Discord board'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        {!board && (
          <TextInput
            label="Key"
            description="Names the board in warden.yaml and the API; it cannot change later."
            required
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
            error={errors?.fields.key}
            maw={360}
          />
        )}
        <TextInput
          label={board ? 'New webhook URL' : 'Webhook URL'}
          description={board ? `Currently ${board.webhookUrl} (token hidden); leave empty to keep it.` : WEBHOOK_HELP}
          placeholder="https://discord.com/api/webhooks/…"
          required={!board}
          type="url"
          autoComplete="off"
          spellCheck={false}
          value={webhookUrl}
          onChange={(e) => setWebhookUrl(e.currentTarget.value)}
          error={errors?.fields.webhookUrl}
        />
        <ComponentsSelect
          label="Components shown"
          description="At most 25. None chosen: every component of the page."
          none="Every component"
          slug={slug}
          value={components}
          onChange={setComponents}
          error={errors?.fields.components}
        />
        <Switch
          label="Enabled: keep the message up to date"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
          error={errors?.fields.enabled}
        />
        <FormFooter
          error={errors?.message ?? null}
          failTitle={board ? 'Not saved' : 'Not added'}
          busy={save.isPending}
          submit={board ? 'Save board' : 'Add board'}
          onCancel={() => {
            save.reset();
            onDone();
          }}
        />
      </Stack>
    </form>
  );
}
