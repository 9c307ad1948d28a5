// What an apply did, one row per server: created, updated, unchanged or skipped for each object, or the error that
// stopped it; fields a newer server reports (per server or for the whole apply) are shown as they come.
import { Alert, Code, List, Stack, Table, Text, Title } from '@mantine/core';
import type { PanelApplyReport } from '../../api/panels';
import { TintedBadge } from '../page/tinted-badge';
import {
  cellText,
  extraColumns,
  extraReportFields,
  OUTCOME_COLORS,
  OUTCOME_COLUMNS,
  reportItemText,
} from './report-fields';

function Outcome({ value }: { value: unknown }) {
  if (typeof value !== 'string')
    return (
      <Text size="sm" c="dimmed">
        {cellText(value)}
      </Text>
    );
  return <TintedBadge color={OUTCOME_COLORS[value] ?? 'gray'}>{value}</TintedBadge>;
}

export function ApplyReport({ report, page }: { report: PanelApplyReport; page: string }) {
  const servers = report.servers as readonly Record<string, unknown>[];
  const extras = extraColumns(servers);
  const failed = servers.filter((s) => typeof s['error'] === 'string').length;
  return (
    <Stack gap="sm" component="section" aria-labelledby="panel-report">
      <Title order={2} size="h4" id="panel-report">
        Applied to {page}
      </Title>
      <Text size="sm" role="status">
        {servers.length} {servers.length === 1 ? 'server' : 'servers'} applied
        {failed > 0 ? `, ${failed} with an error` : ''}.
      </Text>
      {report.truncated && (
        <Alert color="yellow" variant="light">
          The key sees more servers than one apply takes: only the first ones were applied.
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped aria-label="What each server got">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Server</Table.Th>
              {OUTCOME_COLUMNS.map((c) => (
                <Table.Th key={c.name}>{c.label}</Table.Th>
              ))}
              {extras.map((c) => (
                <Table.Th key={c.name}>{c.label}</Table.Th>
              ))}
              <Table.Th>Error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {servers.map((s) => (
              <Table.Tr key={String(s['identifier'])}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {String(s['name'])}
                  </Text>
                  <Code>{String(s['identifier'])}</Code>
                </Table.Td>
                {[...OUTCOME_COLUMNS, ...extras].map((c) => (
                  <Table.Td key={c.name}>
                    <Outcome value={s[c.name]} />
                  </Table.Td>
                ))}
                <Table.Td>
                  {typeof s['error'] === 'string' ? (
                    <Text size="sm" c="var(--mantine-color-error)">
                      {s['error']}
                    </Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {extraReportFields(report).map((field) => (
        <div key={field.name}>
          <Text size="sm" fw={500}>
            {field.label}
          </Text>
          {Array.isArray(field.value) && field.value.length > 0 ? (
            <List size="sm" aria-label={field.label}>
              {field.value.map((item, i) => (
                // Items may repeat; their place is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered
                <List.Item key={i}>{reportItemText(item)}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm">{cellText(field.value)}</Text>
          )}
        </div>
      ))}
    </Stack>
  );
}
