// What "Test this check" found, announced when it arrives: passed or failed, how long it took, the probe's message or error.
import { Alert, Text } from '@mantine/core';
import type { components } from '../../api/schema';

type ProbeRun = components['schemas']['MonitorTestResult'];

/** A light green or yellow alert's title is below AA contrast in Mantine's colours: in the text colour, the alert's colour says the rest. */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

export function TestResult({
  result,
  pending,
  redactedSecrets,
}: {
  result: ProbeRun | undefined;
  pending: boolean;
  redactedSecrets: boolean;
}) {
  return (
    <div role="status" aria-live="polite">
      {pending ? (
        <Text size="sm">Testing the check…</Text>
      ) : result ? (
        <Alert
          color={!result.ok ? 'red' : result.degraded ? 'yellow' : 'green'}
          variant="light"
          title={probeRunTitle(result)}
          styles={READABLE_TITLE}
        >
          <Text size="sm">{result.ok ? (result.message ?? 'No message.') : (result.error ?? 'The check failed.')}</Text>
          {!result.ok && redactedSecrets && (
            <Text size="sm" mt={4}>
              The test sends secrets as they are in the form: type the saved secret again to test with it.
            </Text>
          )}
        </Alert>
      ) : null}
    </div>
  );
}

export function probeRunTitle(result: Pick<ProbeRun, 'ok' | 'degraded' | 'latencyMs'>): string {
  const took = result.latencyMs === null ? '' : ` in ${result.latencyMs} ms`;
  return result.ok ? (result.degraded ? `Passed, degraded${took}` : `Passed${took}`) : `Failed${took}`;
}
