// What discovery proposes, one row per server of the panel: a checkbox to apply it, its name and identifier, the game
// type guessed and from what, and the address its monitor will check.
import { Checkbox, Code, Table, Text } from '@mantine/core';
import type { PanelProposal } from '../../api/panels';
import { addressOf, guessedFromText } from './report-fields';

export function ProposalTable({
  proposals,
  selected,
  onSelect,
  typeLabels,
}: {
  proposals: readonly PanelProposal[];
  selected: ReadonlySet<string>;
  onSelect: (next: Set<string>) => void;
  typeLabels: ReadonlyMap<string, string>;
}) {
  const all = proposals.length > 0 && proposals.every((p) => selected.has(p.identifier));
  const some = !all && proposals.some((p) => selected.has(p.identifier));
  const toggle = (identifier: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(identifier);
    else next.delete(identifier);
    onSelect(next);
  };
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Servers on the panel">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>
              <Checkbox
                aria-label="Apply every server"
                checked={all}
                indeterminate={some}
                onChange={(e) =>
                  onSelect(e.currentTarget.checked ? new Set(proposals.map((p) => p.identifier)) : new Set())
                }
              />
            </Table.Th>
            <Table.Th>Server</Table.Th>
            <Table.Th>Game type</Table.Th>
            <Table.Th>Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {proposals.map((p) => {
            const type = p.monitor?.type;
            const address = addressOf(p.monitor?.config);
            return (
              <Table.Tr key={p.identifier}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Apply ${p.name}`}
                    checked={selected.has(p.identifier)}
                    onChange={(e) => toggle(p.identifier, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {p.name}
                  </Text>
                  <Code>{p.identifier}</Code>
                </Table.Td>
                <Table.Td>
                  {type ? (
                    <>
                      <Text size="sm">{typeLabels.get(type) ?? type}</Text>
                      <Text size="xs" c="dimmed">
                        {guessedFromText(p.guessedFrom)}
                      </Text>
                    </>
                  ) : (
                    <Text size="sm" c="dimmed">
                      None: only the panel’s resources monitor can watch it
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {address ? (
                    <Code>{address}</Code>
                  ) : (
                    <Text size="sm" c="dimmed">
                      No allocation
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
