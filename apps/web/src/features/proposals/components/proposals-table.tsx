import { Badge, Text } from '@mantine/core';
import { memo } from 'react';
import { IconCheck } from '@tabler/icons-react';
import type { ProposalRow } from '@cr/contract/proposals';
import { shortId } from '@cr/contract/plain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '../../../components/copy-button';
import { CELL_CLASS, LINK_CLASS, PlainTable, ROW_CLASS } from '../../../components/plain';
import { TableStatusRows } from '../../../components/table-status-rows';
import { ResponsiveList } from '../../../components/responsive-list';
import { ScrollTable } from '../../../components/scroll-table';
import { paths } from '../../../config/paths';
import { PROPOSALS_PAGE_SIZE } from '../api/proposals';
import { formatFunds } from '../values';

interface ProposalsTableProps {
  rows: ProposalRow[];
  /** The table's accessible name. */
  label: string;
  isLoading: boolean;
  /** While a new page or filter loads, the previous rows stay and the table says it is busy. */
  isFetching?: boolean;
  /** The allocated view's 'reviewed' column (spec §2.11), shown only when the caller says so (D-010). */
  showReviewed?: boolean;
}

function ReviewedMark({ reviewed }: { reviewed: boolean }) {
  const { t } = useTranslation();
  if (reviewed) {
    return (
      <Badge color="green" variant="light" leftSection={<IconCheck size={12} aria-hidden />}>
        {t('proposals.reviewed')}
      </Badge>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {t('proposals.notReviewed')}
    </Text>
  );
}

/**
 * A proposal on a phone (issue 19): the title to open it, then funds, objective, short id and the reviewed mark. Plain
 * elements styled as Mantine's (components/plain.ts): a page shows 25 (issue 30 item 5).
 */
function ProposalCard({ proposal, showReviewed }: { proposal: ProposalRow; showReviewed: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="plain-stack">
      <Link to={paths.proposal(proposal.row_id)} className={LINK_CLASS} style={{ fontWeight: 600 }}>
        {proposal.title}
      </Link>
      <div className="plain-row plain-row-between">
        <p className="plain-text-sm" style={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
          {formatFunds(proposal.funds, proposal.currency)}
        </p>
        {showReviewed && <ReviewedMark reviewed={proposal.has_reviewed} />}
      </div>
      <p className={proposal.objective_title ? 'plain-text-sm' : 'plain-text-sm plain-dimmed plain-italic'}>
        {proposal.objective_title ?? t('proposals.noCategory')}
      </p>
      <div className="plain-row">
        <p className="plain-text-xs plain-dimmed">{t('proposals.columns.id')}</p>
        <p className="plain-text-sm plain-mono">{shortId(proposal.pr_id)}</p>
        <CopyButton value={shortId(proposal.pr_id)} label={t('proposals.copyIdOf', { title: proposal.title })} />
      </div>
    </div>
  );
}

/**
 * The proposals of spec §2.11: short id (copyable), title (linked), objective, funds, and on the allocated view a
 * reviewed mark; a table on wide screens, a card a proposal on phones.
 */
function ProposalsTableView(props: ProposalsTableProps) {
  const { rows, label, isLoading, isFetching = false, showReviewed = false } = props;
  return (
    <ResponsiveList
      rows={rows}
      label={label}
      isLoading={isLoading}
      isFetching={isFetching}
      reserveRows={PROPOSALS_PAGE_SIZE}
      rowKey={(proposal) => proposal.row_id}
      table={(shown, filling) => <WideTable {...props} rows={shown} filling={filling} />}
      card={(proposal) => <ProposalCard proposal={proposal} showReviewed={showReviewed} />}
    />
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ProposalsTable = memo(ProposalsTableView);

/**
 * Fixed widths for the narrow columns (the table's layout is fixed): the columns keep their widths when the rows
 * arrive, instead of the header shifting sideways to fit them (issue 16: no layout shift).
 */
const COLUMN_WIDTHS: Record<string, number | undefined> = { id: 150, funds: 150, reviewed: 140 };

/**
 * One proposal's row, memoised: a row already shown is not rendered again when its list renders (a new page, a
 * refetch that changed other rows).
 */
const ProposalTableRow = memo(function ProposalTableRow({ proposal, showReviewed }: { proposal: ProposalRow; showReviewed: boolean }) {
  const { t } = useTranslation();
  return (
    <tr className={ROW_CLASS}>
      <td className={CELL_CLASS}>
        <div className="plain-row">
          <p className="plain-text-sm plain-mono">{shortId(proposal.pr_id)}</p>
          <CopyButton value={shortId(proposal.pr_id)} label={t('proposals.copyIdOf', { title: proposal.title })} />
        </div>
      </td>
      <td className={CELL_CLASS}>
        <Link to={paths.proposal(proposal.row_id)} className={LINK_CLASS} style={{ fontWeight: 500 }}>
          {proposal.title}
        </Link>
      </td>
      <td className={CELL_CLASS}>
        {proposal.objective_title ?? <span className="plain-text-sm plain-dimmed plain-italic">{t('proposals.noCategory')}</span>}
      </td>
      <td className={CELL_CLASS} style={{ whiteSpace: 'nowrap', textAlign: 'right' }}>
        {formatFunds(proposal.funds, proposal.currency)}
      </td>
      {showReviewed && (
        <td className={CELL_CLASS}>
          <ReviewedMark reviewed={proposal.has_reviewed} />
        </td>
      )}
    </tr>
  );
});

function WideTable({
  rows,
  label,
  isLoading,
  isFetching = false,
  showReviewed = false,
  filling,
}: ProposalsTableProps & { filling: boolean }) {
  const { t } = useTranslation();
  const columns = ['id', 'title', 'objective', 'funds', ...(showReviewed ? ['reviewed'] : [])];
  return (
    <ScrollTable minWidth={720} label={label}>
      <PlainTable
        fixed
        aria-label={label}
        aria-busy={isLoading || isFetching || filling}
        style={{ opacity: isFetching && !isLoading ? 0.6 : 1 }}
      >
        <thead>
          <tr>
            {columns.map((name) => (
              <th key={name} style={{ textAlign: name === 'funds' ? 'right' : undefined, width: COLUMN_WIDTHS[name] }}>
                {t(`proposals.columns.${name}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((proposal) => (
            <ProposalTableRow key={proposal.row_id} proposal={proposal} showReviewed={showReviewed} />
          ))}
          <TableStatusRows isLoading={isLoading} isEmpty={rows.length === 0} colSpan={columns.length} />
        </tbody>
      </PlainTable>
    </ScrollTable>
  );
}
