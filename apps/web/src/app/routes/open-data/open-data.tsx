import { Alert, Button, Center, Code, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { VERIFIER_PACKAGE } from '@cr/contract/open-data';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { openDataInfoQuery, openDataUrl } from '../../../features/open-data/api/open-data';

/**
 * /rounds/{id}/open-data (issue 48): a finished round's open data for anyone — the archive to download once the
 * round's proposal scores have run, what it holds, the head of the round's audit chain, and how to recompute every
 * figure with the verifier.
 */
/** One part of the page: a bordered section named by its heading. */
function InfoSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

export default function OpenData() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const { data: info, isPending, isError } = useQuery({ ...openDataInfoQuery(id), enabled: valid, retry: false });
  if (!valid || isError) return <Text>{t('openData.notFound')}</Text>;
  if (isPending || !info) {
    return (
      <Center py="xl" aria-busy>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  const command = `npx ${VERIFIER_PACKAGE} ${info.file_name}`;
  return (
    <Stack gap="xl" maw={860}>
      <PageHeading title={t('openData.title', { name: info.event_name })} />
      <Text>{t('openData.intro')}</Text>
      {info.available ? (
        <Button component="a" href={openDataUrl(info.event_id)} download={info.file_name} w="fit-content">
          {t('openData.download', { file: info.file_name })}
        </Button>
      ) : (
        <Alert color="yellow" role="status">
          {t('openData.notYet')}
        </Alert>
      )}
      <InfoSection id="open-data-contents" title={t('openData.contentsTitle')}>
        <List spacing={4}>
          {(['configuration', 'reviews', 'moderations', 'appeals', 'outcomes', 'scores', 'chain', 'package'] as const).map((item) => (
            <List.Item key={item}>{t(`openData.contents.${item}`)}</List.Item>
          ))}
        </List>
        <Text size="sm" c="dimmed">
          {t('openData.anonymous')}
        </Text>
      </InfoSection>
      <InfoSection id="open-data-verify" title={t('openData.verifyTitle')}>
        <Text>{t('openData.verifyIntro')}</Text>
        <Code block data-testid="verify-command">
          {command}
        </Code>
        <Text>{t('openData.verifyResult')}</Text>
        <Text size="sm" c="dimmed">
          {t('openData.checksums')}
        </Text>
      </InfoSection>
      <InfoSection id="open-data-head" title={t('openData.headTitle')}>
        <Text>{t('openData.headIntro')}</Text>
        <Code block data-testid="audit-head" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {info.audit_head ?? t('openData.noHead')}
        </Code>
      </InfoSection>
    </Stack>
  );
}
