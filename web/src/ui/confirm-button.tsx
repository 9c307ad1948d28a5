// A button for an action that cannot be undone (revoke, remove): it asks first, in a dialog naming what happens, and
// shows the API's refusal (a 403, a 409) in the dialog, announced.
import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { formErrors } from './form-errors';

export interface ConfirmButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  /** The button's text, and its accessible name with `aria-label`. */
  children: ReactNode;
  'aria-label'?: string;
  title: string;
  /** What confirming does, in words. */
  message: ReactNode;
  confirmLabel: string;
  /** Runs the action; a thrown error stays in the dialog. */
  onConfirm: () => Promise<unknown>;
}

export function ConfirmButton({ children, title, message, confirmLabel, onConfirm, ...button }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (cause) {
      setError(formErrors(cause, []).message ?? 'The action failed.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="xs" variant="light" color="red" {...button} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack gap="md">
          <Text size="sm">{message}</Text>
          {error && (
            <Alert color="red" role="alert" title="Not done">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => void confirm()} data-autofocus>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
