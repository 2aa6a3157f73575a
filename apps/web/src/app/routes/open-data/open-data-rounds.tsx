import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { CELL_CLASS, PlainTable, ROW_CLASS } from '../../../components/plain';
import { paths } from '../../../config/paths';
import { openDataRoundsQuery } from '../../../features/open-data/api/open-data';
import { formatDateShort } from '../../../lib/format';

/**
 * /open-data (issue 48): the finished rounds whose open data is published, each linking to its page (the archive and
 * how to verify it). The home page links here, so anyone finds a round's data without knowing its id.
 */
export default function OpenDataRounds() {
  const { t } = useTranslation();
  const { data: rounds, isPending, isError } = useQuery(openDataRoundsQuery);
  let content;
  if (isError) content = <Text>{t('openData.roundsError')}</Text>;
  else if (isPending || !rounds) {
    content = (
      <Center py="xl" aria-busy>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  } else if (rounds.length === 0) content = <Text c="dimmed">{t('openData.noRounds')}</Text>;
  else {
    content = (
      <PlainTable aria-label={t('openData.roundsTitle')}>
        <thead>
          <tr>
            <th scope="col">{t('openData.round')}</th>
            <th scope="col">{t('openData.ended')}</th>
            <th scope="col">{t('openData.file')}</th>
          </tr>
        </thead>
        <tbody>
          {rounds.map((round) => (
            <tr key={round.event_id} className={ROW_CLASS}>
              <td className={CELL_CLASS}>
                <Anchor component={Link} to={paths['open-data'](round.event_id)}>
                  {round.event_name}
                </Anchor>
              </td>
              <td className={CELL_CLASS}>{formatDateShort(round.end_time) || '—'}</td>
              <td className={CELL_CLASS}>{round.file_name}</td>
            </tr>
          ))}
        </tbody>
      </PlainTable>
    );
  }
  return (
    <Stack gap="md" maw={860}>
      <PageHeading title={t('openData.roundsTitle')}>{t('openData.roundsIntro')}</PageHeading>
      {content}
    </Stack>
  );
}
