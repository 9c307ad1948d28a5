// A secret the server shows this once (an API key, an invitation link, recovery codes): a read-only field to copy,
// a warning that it cannot be seen again, and nothing kept anywhere but on screen until it is dismissed.
import { Alert, Button, CopyButton, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ShownOnceProps {
  /** The field's label: "API key", "Invitation link". */
  label: string;
  value: string;
  /** What it is for and what to do with it. */
  children?: ReactNode;
  /** Several lines (recovery codes): a text area, and a download of the text as `download`. */
  lines?: number;
  download?: string;
  onDone?: () => void;
  /** What Warden keeps of it, when it is more than a hash (a webhook's signing secret, which it signs with). */
  kept?: ReactNode;
}

export function ShownOnce({ label, value, children, lines, download, onDone, kept }: ShownOnceProps) {
  const field = {
    label,
    value,
    readOnly: true,
    onFocus: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => e.currentTarget.select(),
    styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)' } },
  };
  return (
    // Yellow marks the warning; its title keeps the text colour (yellow on pale yellow is unreadable).
    <Alert
      color="yellow"
      variant="light"
      title={`Copy the ${label.toLowerCase()} now: it is shown only once`}
      role="status"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="sm">
        {children && <Text size="sm">{children}</Text>}
        {lines ? <Textarea {...field} rows={Math.min(lines, 12)} /> : <TextInput {...field} />}
        <Group gap="xs">
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant={copied ? 'filled' : 'default'}
                color={copied ? 'teal' : undefined}
                onClick={copy}
                aria-live="polite"
              >
                {copied ? 'Copied' : `Copy the ${label.toLowerCase()}`}
              </Button>
            )}
          </CopyButton>
          {download && (
            <Button size="xs" variant="default" onClick={() => saveText(download, value)}>
              Download
            </Button>
          )}
          {onDone && (
            <Button size="xs" variant="subtle" onClick={onDone}>
              I have saved it
            </Button>
          )}
        </Group>
        <Text size="xs">{kept ?? 'Warden keeps only a hash: once this is closed, nobody can show it again.'}</Text>
      </Stack>
    </Alert>
  );
}

/** Saves `text` as a file through a short-lived object URL (nothing is stored by the page). */
function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
