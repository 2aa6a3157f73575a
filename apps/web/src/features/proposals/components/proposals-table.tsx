import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { memo } from 'react';
import { IconCheck } from '@tabler/icons-react';
import type { ProposalRow } from '@cr/contract/proposals';
import { shortId } from '@cr/contract/plain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '../../../components/copy-button';
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

/** A proposal on a phone (issue 19): the title to open it, then funds, objective, short id and the reviewed mark. */
function ProposalCard({ proposal, showReviewed }: { proposal: ProposalRow; showReviewed: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Anchor component={Link} to={paths.proposal(proposal.row_id)} fw={600}>
        {proposal.title}
      </Anchor>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatFunds(proposal.funds, proposal.currency)}
        </Text>
        {showReviewed && <ReviewedMark reviewed={proposal.has_reviewed} />}
      </Group>
      <Text size="sm" c={proposal.objective_title ? undefined : 'dimmed'} fs={proposal.objective_title ? undefined : 'italic'}>
        {proposal.objective_title ?? t('proposals.noCategory')}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('proposals.columns.id')}
        </Text>
        <Text size="sm" ff="monospace">
          {shortId(proposal.pr_id)}
        </Text>
        <CopyButton value={shortId(proposal.pr_id)} label={t('proposals.copyIdOf', { title: proposal.title })} />
      </Group>
    </Stack>
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
      table={() => <WideTable {...props} />}
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

function WideTable({ rows, label, isLoading, isFetching = false, showReviewed = false }: ProposalsTableProps) {
  const { t } = useTranslation();
  const columns = ['id', 'title', 'objective', 'funds', ...(showReviewed ? ['reviewed'] : [])];
  return (
    <ScrollTable minWidth={720} label={label}>
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
        layout="fixed"
        aria-label={label}
        aria-busy={isLoading || isFetching}
        style={{ opacity: isFetching && !isLoading ? 0.6 : 1 }}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((name) => (
              <Table.Th key={name} ta={name === 'funds' ? 'right' : undefined} w={COLUMN_WIDTHS[name]}>
                {t(`proposals.columns.${name}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((proposal) => (
            <Table.Tr key={proposal.row_id}>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" ff="monospace">
                    {shortId(proposal.pr_id)}
                  </Text>
                  <CopyButton value={shortId(proposal.pr_id)} label={t('proposals.copyIdOf', { title: proposal.title })} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.proposal(proposal.row_id)} fw={500}>
                  {proposal.title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {proposal.objective_title ?? (
                  <Text span size="sm" c="dimmed" fs="italic">
                    {t('proposals.noCategory')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatFunds(proposal.funds, proposal.currency)}
              </Table.Td>
              {showReviewed && (
                <Table.Td>
                  <ReviewedMark reviewed={proposal.has_reviewed} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
          <TableStatusRows isLoading={isLoading} isEmpty={rows.length === 0} colSpan={columns.length} />
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
