// The end of a settings form: why it was not saved, that it was, and its save button (left out when read-only).
import { Alert, Button, Group } from '@mantine/core';

export function SaveFooter({
  error,
  saved,
  pending,
  readOnly,
  label,
  savedText = 'Saved: the public page shows it now.',
}: {
  /** The form's message that is not about one field, if the save failed. */
  error: string | null | undefined;
  saved: boolean;
  pending: boolean;
  readOnly: boolean;
  /** The button's words, e.g. "Save settings". */
  label: string;
  savedText?: string;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" title="Not saved">
          {error}
        </Alert>
      )}
      {saved && !pending && (
        <Alert color="green" role="status" variant="light">
          {savedText}
        </Alert>
      )}
      {!readOnly && (
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {label}
          </Button>
        </Group>
      )}
    </>
  );
}
