import { Anchor, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { appealQuery } from '../../../features/appeals/api/appeals';
import { AppealDecisionForm } from '../../../features/appeals/components/appeal-decision-form';
import { AppealResult } from '../../../features/appeals/components/appeal-panel';

/**
 * /appeal/{id} (issue 28 item 2): an appeal allocated to the moderator — the reviewer's rationale, a link to the
 * review, the state so far and the moderator's decision form (editable until the appeal is decided).
 */
export default function Appeal() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: appeal, isPending, isError } = useQuery({ ...appealQuery(id), enabled: Number.isSafeInteger(id) && id > 0, retry: false });
  if (isError || !Number.isSafeInteger(id) || id <= 0) return <Text>{t('appeals.notFound')}</Text>;
  if (isPending || !appeal) {
    return (
      <Center py="xl" aria-busy>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  return (
    <Stack gap="xl">
      <PageHeading title={t('appeals.appealTitle', { title: appeal.proposal_title })} />
      <Anchor component={Link} to={paths.review(appeal.review_id)}>
        {t('appeals.readReview')}
      </Anchor>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="appeal-rationale-title">
        <Stack gap="xs">
          <Title order={2} size="h3" id="appeal-rationale-title">
            {t('appeals.rationaleTitle')}
          </Title>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{appeal.rationale}</Text>
        </Stack>
      </Paper>
      <AppealResult appeal={appeal} />
      {(appeal.my_decision !== null || appeal.status === 'allocated') && <AppealDecisionForm key={appeal.status} appeal={appeal} />}
    </Stack>
  );
}
