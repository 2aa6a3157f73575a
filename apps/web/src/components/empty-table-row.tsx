import { useTranslation } from 'react-i18next';
import { CELL_CLASS } from './plain';

/**
 * The row a table shows when it has nothing to list (spec §8 'No items found.'). Plain elements: it ends Mantine's
 * tables and the lists' plain ones (components/plain.tsx) alike.
 */
export function EmptyTableRow({ colSpan }: { colSpan: number }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td className={CELL_CLASS} colSpan={colSpan} style={{ textAlign: 'center', color: 'var(--mantine-color-dimmed)' }}>
        {t('errors.noItems')}
      </td>
    </tr>
  );
}
