// A report's figures over the whole range, one row per subject: availability, downtime, degraded and maintenance
// minutes, incidents, recoveries and the mean time to recover.
import { Table, Text } from '@mantine/core';
import type { ReportFigures, ReportSubject } from '../../api/reports';

const TYPE_LABELS: Record<ReportSubject['type'], string> = { monitor: 'Monitor', component: 'Component', page: 'Page' };

export const availabilityText = (f: ReportFigures) => (f.availability === null ? '–' : `${f.availability} %`);
const minutes = (value: number | null) => (value === null ? '–' : `${value.toLocaleString()} min`);

export function ReportTable({ subjects, caption }: { subjects: readonly ReportSubject[]; caption: string }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Subject</Table.Th>
            <Table.Th scope="col">Availability</Table.Th>
            <Table.Th scope="col">Downtime</Table.Th>
            <Table.Th scope="col">Degraded</Table.Th>
            <Table.Th scope="col">Maintenance</Table.Th>
            <Table.Th scope="col">Incidents</Table.Th>
            <Table.Th scope="col">Recoveries</Table.Th>
            <Table.Th scope="col">Time to recover</Table.Th>
            <Table.Th scope="col">Checks</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {subjects.map((s) => (
            <Table.Tr key={`${s.type}:${s.id}`}>
              <Table.Th scope="row" fw={500}>
                {s.name}
                <Text size="xs" c="dimmed" span display="block">
                  {TYPE_LABELS[s.type]} · {s.key}
                </Text>
              </Table.Th>
              <Table.Td>{availabilityText(s.summary)}</Table.Td>
              <Table.Td>{minutes(s.summary.downMinutes)}</Table.Td>
              <Table.Td>{minutes(s.summary.degradedMinutes)}</Table.Td>
              <Table.Td>{minutes(s.summary.maintenanceMinutes)}</Table.Td>
              <Table.Td>{s.summary.incidents}</Table.Td>
              <Table.Td>{s.summary.recoveries}</Table.Td>
              <Table.Td>{minutes(s.summary.mttrMinutes)}</Table.Td>
              <Table.Td>{s.summary.checks.toLocaleString()}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
