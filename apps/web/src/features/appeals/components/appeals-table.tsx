import { Anchor, Badge } from '@mantine/core';
import type { AppealPublic } from '@cr/contract/appeals';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CELL_CLASS, PlainTable } from '../../../components/plain';
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
    <PlainTable vertical>
      <caption style={{ captionSide: 'top', textAlign: 'start', paddingBlock: 'var(--mantine-spacing-xs)' }}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('appeals.columns.review')}</th>
          <th scope="col">{t('appeals.columns.made')}</th>
          <th scope="col">{t('appeals.columns.status')}</th>
          <th scope="col">{t('appeals.columns.decisions')}</th>
        </tr>
      </thead>
      <tbody>
        <TableStatusRows isLoading={isLoading} isEmpty={!isLoading && rows.length === 0} colSpan={4} />
        {rows.map((appeal) => (
          <tr key={appeal.row_id}>
            <td className={CELL_CLASS}>
              <Anchor component={Link} to={linkTo(appeal)}>
                {appeal.proposal_title}
              </Anchor>
            </td>
            <td className={CELL_CLASS}>{formatDateShort(appeal.created_at)}</td>
            <td className={CELL_CLASS}>
              <Badge variant="light">{t(`appeals.status.${appeal.status}`)}</Badge>
            </td>
            <td className={CELL_CLASS}>{t('appeals.tally', appeal)}</td>
          </tr>
        ))}
      </tbody>
    </PlainTable>
  );
}
