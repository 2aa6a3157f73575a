import { Alert, Anchor, Grid, Loader, NavLink as MantineNavLink, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { eventConfigQuery, eventQuery, levelQualifiersQuery } from '../../../features/events/api/events';
import { GeneralConfigForm } from '../../../features/events/components/general-config-form';
import { LevelQualifiersForm } from '../../../features/events/components/level-qualifiers-form';

/** The eight sections of spec §2.17, in the side menu's order. */
export const SECTIONS = ['general', 'levels', 'proposalAllocation', 'moderationAllocation', 'outcomes', 'scoring', 'export', 'import'] as const;
type Section = (typeof SECTIONS)[number];

function GeneralSection({ eventId }: { eventId: number }) {
  const { data } = useQuery(eventConfigQuery(eventId));
  if (data === undefined) return <Loader size="sm" />;
  return <GeneralConfigForm key={JSON.stringify(data)} eventId={eventId} config={data ?? {}} />;
}

function LevelsSection({ eventId }: { eventId: number }) {
  const { data } = useQuery(levelQualifiersQuery(eventId));
  if (!data) return <Loader size="sm" />;
  return <LevelQualifiersForm eventId={eventId} value={data} />;
}

/** /admin/{id}: one event's configuration, a side menu of eight sections (spec §2.17). */
export default function AdminEventConfiguration() {
  const { t } = useTranslation();
  const eventId = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const section: Section = SECTIONS.find((name) => name === params.get('section')) ?? 'general';
  const event = useQuery({ ...eventQuery(eventId), enabled: Number.isInteger(eventId) && eventId > 0, retry: false });
  if (!Number.isInteger(eventId) || eventId <= 0 || event.isError) {
    return (
      <Alert color="red" title={t('admin.eventConfiguration')}>
        {t('errors.eventNotFound')}
      </Alert>
    );
  }
  const title = t(`admin.sections.${section}`);
  return (
    <>
      <Anchor component={Link} to={paths['admin-events']()} size="sm">
        <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> {t('admin.backToEvents')}
      </Anchor>
      <PageHeading title={event.data ? event.data.name : t('admin.eventConfiguration')} />
      <Grid gutter="xl">
        <Grid.Col span={{ base: 12, sm: 4, md: 3 }}>
          <nav aria-label={t('admin.sectionsLabel')}>
            {SECTIONS.map((name) => (
              <MantineNavLink
                key={name}
                component="button"
                type="button"
                label={t(`admin.sections.${name}`)}
                active={name === section}
                aria-current={name === section ? 'page' : undefined}
                onClick={() => setParams({ section: name })}
              />
            ))}
          </nav>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8, md: 9 }}>
          <Stack gap="md">
            <Title order={2} size="h3">
              {title}
            </Title>
            {section === 'general' && <GeneralSection eventId={eventId} />}
            {section === 'levels' && <LevelsSection eventId={eventId} />}
            {section !== 'general' && section !== 'levels' && <Text c="dimmed">{t('admin.comingSoon')}</Text>}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
