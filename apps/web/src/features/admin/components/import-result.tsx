import { List, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ImportResult } from '@cr/contract/proposals';
import { useTranslation } from 'react-i18next';

/** The result of an import (spec §3 "Import options"): counts, the categories created and the first skipped proposals with their reasons. */
export function ImportResultView({ result }: { result: ImportResult }) {
  const { t } = useTranslation();
  const counts: [string, number][] = [
    [t('adminRuns.import.created'), result.created],
    [t('adminRuns.import.updated'), result.updated],
    [t('adminRuns.import.unchanged'), result.unchanged],
    [t('adminRuns.import.skipped'), result.skipped],
  ];
  const unlisted = result.skipped - result.skipped_proposals.length;
  const categoriesCreated = [...result.categories_created].sort((a, b) => a.localeCompare(b));
  return (
    <Stack gap="md" data-testid="import-result">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Table withTableBorder variant="vertical" layout="fixed" captionSide="top">
          <Table.Caption>{t('adminRuns.import.countsCaption')}</Table.Caption>
          <Table.Tbody>
            {counts.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Stack gap={4}>
          <Title order={4} size="h6">
            {t('adminRuns.import.categoriesCreated')}
          </Title>
          {categoriesCreated.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('adminRuns.import.none')}
            </Text>
          ) : (
            <List size="sm">
              {categoriesCreated.map((title) => (
                <List.Item key={title}>{title}</List.Item>
              ))}
            </List>
          )}
        </Stack>
      </SimpleGrid>
      {result.skipped_proposals.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h6">
            {t('adminRuns.import.skippedTitle')}
          </Title>
          <List size="sm" data-testid="skipped-proposals">
            {result.skipped_proposals.map((item, index) => (
              <List.Item key={`${item.pr_id}-${index}`}>
                {t('adminRuns.import.skippedItem', { title: item.title ?? item.pr_id, id: item.pr_id, reason: item.reason })}
              </List.Item>
            ))}
          </List>
          {unlisted > 0 && (
            <Text size="sm" c="dimmed">
              {t('adminRuns.import.moreSkipped', { n: unlisted })}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
