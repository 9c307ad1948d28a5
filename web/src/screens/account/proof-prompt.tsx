// "Confirm it is you": what sensitive changes (recovery codes, TOTP on or off, a new email) ask for when the session has
// not proven its user in the last few minutes — the password, or a code of the authenticator app.
import { Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import type { Me } from '../../api/types';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';

export type Proof = { password: string } | { code: string };

/** Whether the API asked for a fresh proof (403 reauthentication-required). */
export function needsProof(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'reauthentication-required';
}

/** The field a user proves it is them with: their password, else (without one) a code of their app; none for neither. */
export function proofKind(user: Me['user']): 'password' | 'code' | null {
  return user.hasPassword ? 'password' : user.totpEnabled ? 'code' : null;
}

export function ProofField({
  user,
  value,
  onChange,
  error,
}: {
  user: Me['user'];
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const kind = proofKind(user);
  if (kind === 'password')
    return (
      <PasswordInput
        label="Your password"
        autoComplete="current-password"
        required
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
      />
    );
  if (kind === 'code')
    return (
      <TextInput
        label="A code from your app, or a recovery code"
        autoComplete="one-time-code"
        required
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
      />
    );
  return (
    <Text size="sm">
      Sign out and in again (with your provider) to confirm it is you, then try again within a few minutes.
    </Text>
  );
}

export function proofOf(user: Me['user'], value: string): Proof {
  return proofKind(user) === 'code' ? { code: value } : { password: value };
}

/** Asks for the proof, then runs `onProof` with it; its refusal (a wrong password) shows here. */
export function ProofPrompt({
  user,
  action,
  onProof,
  onCancel,
}: {
  user: Me['user'];
  action: string;
  onProof: (proof: Proof) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors<'password' | 'code'>>(noFormErrors);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    setBusy(true);
    try {
      await onProof(proofOf(user, value));
    } catch (error) {
      setErrors(formErrors(error, ['password', 'code']));
    } finally {
      setBusy(false);
    }
  };
  const kind = proofKind(user);
  return (
    // Plain, not an Alert: its field's error must read well on the background (axe: colour contrast).
    <Paper withBorder p="sm" radius="md" role="group" aria-label="Confirm it is you">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm" maw={320}>
          <Text size="sm" fw={600}>
            Confirm it is you
          </Text>
          <ProofField
            user={user}
            value={value}
            onChange={setValue}
            error={kind === null ? undefined : errors.fields[kind]}
          />
          <FormMessage message={errors.message} />
          <Group gap="xs">
            {kind !== null && (
              <Button type="submit" loading={busy} disabled={!value}>
                {action}
              </Button>
            )}
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
