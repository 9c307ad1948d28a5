// The TOTP second factor: enrolment (a QR code of the otpauth:// URI and the secret to type by hand, then a code to
// confirm), recovery codes shown once (copy or download), new recovery codes, and turning it off. Beginning and new
// codes ask for the password (or a code) when the session has not proven its user lately; turning off always does.
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { api, call } from '../../api/client';
import { meChanged } from '../../api/session';
import type { Me } from '../../api/types';
import { ConfirmButton } from '../../ui/confirm-button';
import { type FormErrors, formErrors, noFormErrors } from '../../ui/form-errors';
import { FormMessage } from '../../ui/form-message';
import { ShownOnce } from '../../ui/shown-once';
import { needsProof, type Proof, ProofPrompt } from './proof-prompt';
import { Section } from './section';

const OtpauthQr = lazy(() => import('./otpauth-qr'));

export function TwoFactorSection({ user }: { user: Me['user'] }) {
  const enabled = user.totpEnabled;
  const queryClient = useQueryClient();
  // Recovery codes just made (enrolment or regeneration): on screen until dismissed, never stored.
  const [codes, setCodes] = useState<string[] | null>(null);
  const refreshMe = () => meChanged(queryClient);
  return (
    <Section title="Two-factor authentication">
      <Stack gap="sm">
        <Group gap="xs">
          <Text size="sm">Status:</Text>
          <Badge variant={enabled ? 'filled' : 'default'} color={enabled ? 'teal.9' : undefined} tt="none">
            {enabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        {codes && (
          <ShownOnce
            label="Recovery codes"
            value={codes.join('\n')}
            lines={codes.length}
            download="warden-recovery-codes.txt"
            onDone={() => setCodes(null)}
          >
            Each code signs in once in place of your app’s code, if you lose the device. Keep them somewhere safe.
          </ShownOnce>
        )}
        {enabled ? (
          <Enabled
            user={user}
            onCodes={setCodes}
            onDisabled={async () => {
              setCodes(null);
              await refreshMe();
            }}
          />
        ) : (
          <Enrol
            user={user}
            onConfirmed={async (recoveryCodes) => {
              setCodes(recoveryCodes);
              await refreshMe();
            }}
          />
        )}
      </Stack>
    </Section>
  );
}

function Enrol({ user, onConfirmed }: { user: Me['user']; onConfirmed: (codes: string[]) => Promise<void> }) {
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FormErrors<'code'>>(noFormErrors);
  const begin = useMutation({
    mutationFn: (proof?: Proof) => call(api.POST('/api/v1/auth/totp', { body: proof ?? {} })),
  });
  const confirm = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/totp/confirm', { body: { code: code.trim() } })),
    onSuccess: async ({ recoveryCodes }) => {
      begin.reset();
      setCode('');
      await onConfirmed(recoveryCodes);
    },
    onError: (error) => setErrors(formErrors(error, ['code'])),
  });
  if (!begin.data && needsProof(begin.error))
    return (
      <ProofPrompt
        user={user}
        action="Continue"
        onProof={(proof) => begin.mutateAsync(proof)}
        onCancel={() => begin.reset()}
      />
    );
  if (!begin.data)
    return (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Sign-in then also asks for a 6-digit code from an authenticator app on your phone.</Text>
        {begin.error && (
          <Text size="sm" c="red" role="alert">
            {formErrors(begin.error, []).message}
          </Text>
        )}
        <Button onClick={() => begin.mutate(undefined)} loading={begin.isPending}>
          Set up two-factor authentication
        </Button>
      </Stack>
    );
  const { secret, uri } = begin.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    confirm.mutate();
  };
  return (
    <Stack gap="sm">
      <Text size="sm">1. Scan this code with your authenticator app, or type the secret into it.</Text>
      <Suspense fallback={<Loader size="sm" aria-label="Drawing the QR code" />}>
        <OtpauthQr uri={uri} />
      </Suspense>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" id="totp-secret-label">
          Secret:
        </Text>
        <Code aria-labelledby="totp-secret-label" data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy} aria-live="polite">
              {copied ? 'Copied' : 'Copy the secret'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={320}>
          <TextInput
            label="2. The 6-digit code your app shows"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.fields.code}
          />
          <FormMessage message={errors.message} />
          <Group gap="xs">
            <Button type="submit" loading={confirm.isPending}>
              Turn on
            </Button>
            <Button variant="default" onClick={() => begin.reset()}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function Enabled({
  user,
  onCodes,
  onDisabled,
}: {
  user: Me['user'];
  onCodes: (codes: string[]) => void;
  onDisabled: () => Promise<void>;
}) {
  const [turningOff, setTurningOff] = useState(false);
  const [proving, setProving] = useState(false);
  const newCodes = async (proof?: Proof) =>
    onCodes((await call(api.POST('/api/v1/auth/recovery-codes', { body: proof ?? {} }))).recoveryCodes);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <ConfirmButton
          variant="default"
          color="gray"
          title="Make new recovery codes?"
          message="Your current recovery codes stop working; the new ones are shown once."
          confirmLabel="Make new codes"
          onConfirm={async () => {
            try {
              await newCodes();
            } catch (error) {
              // Signed in a while ago: the codes wait for the password (or a code) below.
              if (needsProof(error)) setProving(true);
              else throw error;
            }
          }}
        >
          New recovery codes
        </ConfirmButton>
        {!turningOff && (
          <Button size="xs" variant="light" color="red" onClick={() => setTurningOff(true)}>
            Turn off
          </Button>
        )}
      </Group>
      {proving && (
        <ProofPrompt
          user={user}
          action="Make new codes"
          onProof={async (proof) => {
            await newCodes(proof);
            setProving(false);
          }}
          onCancel={() => setProving(false)}
        />
      )}
      {turningOff && (
        <TurnOff hasPassword={user.hasPassword} onCancel={() => setTurningOff(false)} onDone={onDisabled} />
      )}
    </Stack>
  );
}

function TurnOff({
  hasPassword,
  onCancel,
  onDone,
}: {
  hasPassword: boolean;
  onCancel: () => void;
  onDone: () => Promise<void>;
}) {
  const [proof, setProof] = useState('');
  const field = hasPassword ? 'password' : 'code';
  const [errors, setErrors] = useState<FormErrors<'password' | 'code'>>(noFormErrors);
  const disable = useMutation({
    mutationFn: () => call(api.DELETE('/api/v1/auth/totp', { body: { [field]: proof } })),
    onSuccess: onDone,
    onError: (error) => setErrors(formErrors(error, ['password', 'code'])),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors(noFormErrors());
    disable.mutate();
  };
  return (
    <Alert color="red" variant="light" title="Turn two-factor authentication off">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={320}>
          {hasPassword ? (
            <PasswordInput
              label="Your password"
              autoComplete="current-password"
              required
              value={proof}
              onChange={(e) => setProof(e.currentTarget.value)}
              error={errors.fields.password}
            />
          ) : (
            <TextInput
              label="A code from your app, or a recovery code"
              autoComplete="one-time-code"
              required
              value={proof}
              onChange={(e) => setProof(e.currentTarget.value)}
              error={errors.fields.code}
            />
          )}
          <FormMessage message={errors.message} />
          <Group gap="xs">
            <Button type="submit" color="red" loading={disable.isPending} disabled={!proof}>
              Turn off
            </Button>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Alert>
  );
}
