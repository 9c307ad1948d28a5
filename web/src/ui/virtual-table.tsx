// A table of any length: a real <table> (headers, caption, row counts for screen readers) whose body renders only the
// rows near the window's scroll position (TanStack Virtual), with a call when the end comes near for server paging.
import { type MantineBreakpoint, Table, VisuallyHidden } from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Hidden below this breakpoint (on phones the table keeps its most telling columns). */
  visibleFrom?: MantineBreakpoint;
  width?: number | string;
}

export interface VirtualTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** Names the table for screen readers; shown only to them. */
  caption: string;
  /** The number of rows in all when the server knows more than are loaded (aria-rowcount). */
  total?: number | undefined;
  /** Called when the last loaded rows come into view: load the next page. */
  onEndReached?: (() => void) | undefined;
  estimateRowHeight?: number;
}

const OVERSCAN = 10;

export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  caption,
  total,
  onEndReached,
  estimateRowHeight = 44,
}: VirtualTableProps<T>) {
  const tableRef = useRef<HTMLTableElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the table starts in the page: what is above it (filters, a count) may change height, so it is read after
  // every render; setting the same number again does not render again.
  useLayoutEffect(() => {
    setScrollMargin(tableRef.current ? tableRef.current.getBoundingClientRect().top + window.scrollY : 0);
  });
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => estimateRowHeight,
    overscan: OVERSCAN,
    scrollMargin,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1);
  useEffect(() => {
    if (onEndReached && last && last.index >= rows.length - OVERSCAN) onEndReached();
  }, [last, rows.length, onEndReached]);

  const before = items[0] ? items[0].start - scrollMargin : 0;
  const after = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;
  return (
    <Table ref={tableRef} highlightOnHover verticalSpacing="xs" aria-rowcount={(total ?? rows.length) + 1}>
      <Table.Caption>
        <VisuallyHidden>{caption}</VisuallyHidden>
      </Table.Caption>
      <Table.Thead>
        <Table.Tr aria-rowindex={1}>
          {columns.map((column) => (
            <Table.Th key={column.key} scope="col" visibleFrom={column.visibleFrom} w={column.width}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {before > 0 && (
          // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holding the height of unrendered rows; nothing in it takes focus
          <tr aria-hidden="true">
            <td colSpan={columns.length} style={{ height: before, padding: 0, border: 0 }} />
          </tr>
        )}
        {items.map((item) => {
          const row = rows[item.index] as T;
          return (
            <Table.Tr
              key={rowKey(row)}
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-rowindex={item.index + 2}
            >
              {columns.map((column) => (
                <Table.Td key={column.key} visibleFrom={column.visibleFrom}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          );
        })}
        {after > 0 && (
          // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holding the height of unrendered rows; nothing in it takes focus
          <tr aria-hidden="true">
            <td colSpan={columns.length} style={{ height: after, padding: 0, border: 0 }} />
          </tr>
        )}
      </Table.Tbody>
    </Table>
  );
}
