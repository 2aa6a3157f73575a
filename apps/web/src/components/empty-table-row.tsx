import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The row a table shows when it has nothing to list (spec §8 'No items found.'). */
export function EmptyTableRow({ colSpan }: { colSpan: number }) {
  const { t } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text c="dimmed" ta="center">
          {t('errors.noItems')}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
