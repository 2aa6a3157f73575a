import { EmptyTableRow } from './empty-table-row';
import { LoadingLine } from './loading-line';
import { CELL_CLASS } from './plain';

/**
 * The rows a paged list table ends with: while its page loads a row that says so, and once loaded with nothing to
 * list 'No items found.' (spec §8).
 */
export function TableStatusRows({ isLoading, isEmpty, colSpan }: { isLoading: boolean; isEmpty: boolean; colSpan: number }) {
  if (!isLoading) return isEmpty ? <EmptyTableRow colSpan={colSpan} /> : null;
  return (
    <tr>
      <td className={CELL_CLASS} colSpan={colSpan}>
        <LoadingLine />
      </td>
    </tr>
  );
}
