import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ProposalPublic } from '@cr/contract/proposals';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { PlainTable } from '../../../components/plain';
import { formatFunds, isWebUrl } from '../values';

/** The button to the full proposal, only when it has a url (spec §2.12, D-024); it opens a new tab. */
function OpenFullProposal({ url }: { url: string | null }) {
  const { t } = useTranslation();
  if (!isWebUrl(url)) return null;
  return (
    <Button
      component="a"
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      variant="light"
      rightSection={<IconExternalLink size={16} aria-hidden />}
      w="fit-content"
    >
      {t('proposals.openFull')}
      <span className="visually-hidden"> {t('proposals.opensInNewTab')}</span>
    </Button>
  );
}

/** Title, objective, proposal id, proposer, requested funds and summary of a proposal (spec §2.12, D-019..D-021). */
function ProposalDetailsView({ proposal }: { proposal: ProposalPublic }) {
  const { t } = useTranslation();
  const summaryId = useId();
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Title order={1} size="h2">
          {proposal.title}
        </Title>
        <Group gap="xs">
          {proposal.objective_title ? (
            <Badge variant="light" size="lg" tt="none" data-testid="proposal-objective">
              {proposal.objective_title}
            </Badge>
          ) : (
            <Badge variant="outline" color="gray" size="lg" tt="none" data-testid="proposal-objective">
              {t('proposals.noCategory')}
            </Badge>
          )}
        </Group>
      </Stack>
      <PlainTable vertical fixed style={{ maxWidth: 720 }} aria-label={t('proposals.information')}>
        <tbody>
          <tr>
            <th style={{ width: 180 }}>{t('proposals.proposalId')}</th>
            <td>
              <Group gap={4} wrap="nowrap">
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="proposal-id">
                  {proposal.pr_id}
                </Text>
                <CopyButton value={proposal.pr_id} label={t('proposals.copyId')} />
              </Group>
            </td>
          </tr>
          <tr>
            <th>{t('proposals.proposer')}</th>
            <td>{proposal.proposer_name ?? t('proposals.anonymous')}</td>
          </tr>
          <tr>
            <th>{t('proposals.requestedFunds')}</th>
            <td>{formatFunds(proposal.funds, proposal.currency) || t('proposals.noAnswer')}</td>
          </tr>
        </tbody>
      </PlainTable>
      <OpenFullProposal url={proposal.url} />
      {proposal.summary && (
        <Paper component="section" aria-labelledby={summaryId} withBorder radius="md" p="lg">
          <Title order={2} size="h3" id={summaryId} mb="sm">
            {t('proposals.summary')}
          </Title>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{proposal.summary}</Text>
        </Paper>
      )}
    </Stack>
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ProposalDetails = memo(ProposalDetailsView);
