import { Anchor, Badge, Table } from '@mantine/core';
import type { AppealPublic } from '@cr/contract/appeals';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableStatusRows } from '../../../components/table-status-rows';
import { formatDateShort } from '../../../lib/format';

/**
 * A list of appeals: the proposal (a link to `linkTo` of the appeal: the review for its author, the decision page for
 * a moderator), when it was made, its status and the decisions so far.
 */
export function AppealsTable({
  rows,
  isLoading,
  caption,
  linkTo,
}: {
  rows: AppealPublic[];
  isLoading: boolean;
  caption: string;
  linkTo: (appeal: AppealPublic) => string;
}) {
  const { t } = useTranslation();
  return (
    <Table withTableBorder captionSide="top">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('appeals.columns.review')}</Table.Th>
          <Table.Th scope="col">{t('appeals.columns.made')}</Table.Th>
          <Table.Th scope="col">{t('appeals.columns.status')}</Table.Th>
          <Table.Th scope="col">{t('appeals.columns.decisions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        <TableStatusRows isLoading={isLoading} isEmpty={!isLoading && rows.length === 0} colSpan={4} />
        {rows.map((appeal) => (
          <Table.Tr key={appeal.row_id}>
            <Table.Td>
              <Anchor component={Link} to={linkTo(appeal)}>
                {appeal.proposal_title}
              </Anchor>
            </Table.Td>
            <Table.Td>{formatDateShort(appeal.created_at)}</Table.Td>
            <Table.Td>
              <Badge variant="light">{t(`appeals.status.${appeal.status}`)}</Badge>
            </Table.Td>
            <Table.Td>{t('appeals.tally', appeal)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
