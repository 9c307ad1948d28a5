// The "Join button" of a component's form: derived from its monitor, hidden, or the component's own address / link.
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ComponentView } from '../../api/components';

export type JoinSetting = ComponentView['join'];
type Mode = 'auto' | 'hidden' | 'custom';

/** The draft of the setting: its mode and, for a custom one, the two texts as typed. */
export function useJoinDraft(initial: JoinSetting | undefined) {
  const custom = typeof initial === 'object' ? initial : undefined;
  const [mode, setMode] = useState<Mode>(typeof initial === 'object' ? 'custom' : (initial ?? 'auto'));
  const [address, setAddress] = useState(custom?.address ?? '');
  const [url, setUrl] = useState(custom?.url ?? '');
  const value = (): JoinSetting => {
    if (mode !== 'custom') return mode;
    return { ...(address.trim() ? { address: address.trim() } : {}), ...(url.trim() ? { url: url.trim() } : {}) };
  };
  const reset = () => {
    setMode('auto');
    setAddress('');
    setUrl('');
  };
  return { mode, setMode, address, setAddress, url, setUrl, value, reset };
}

export function JoinField({ draft, error }: { draft: ReturnType<typeof useJoinDraft>; error?: string | undefined }) {
  return (
    <Stack gap="xs">
      <Select
        label="Join button"
        description="How players join from the page: Steam, Minecraft and FiveM monitors give their own."
        allowDeselect={false}
        data={[
          { value: 'auto', label: 'From the monitor (auto)' },
          { value: 'hidden', label: 'Hidden' },
          { value: 'custom', label: 'Custom address or link' },
        ]}
        value={draft.mode}
        onChange={(v) => v && draft.setMode(v as Mode)}
        error={draft.mode === 'custom' ? undefined : error}
      />
      {draft.mode === 'custom' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Address to copy"
            description="host or host:port"
            placeholder="play.example.com"
            value={draft.address}
            onChange={(e) => draft.setAddress(e.currentTarget.value)}
            error={error}
          />
          <TextInput
            label="Join link"
            description="steam:// or https://"
            placeholder="https://cfx.re/join/abc123"
            value={draft.url}
            onChange={(e) => draft.setUrl(e.currentTarget.value)}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}
