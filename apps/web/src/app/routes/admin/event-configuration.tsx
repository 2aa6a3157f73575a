import { Alert, Anchor, Divider, Grid, Loader, NavLink as MantineNavLink, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { CoverageSection } from '../../../features/admin/components/coverage-section';
import { EventOverview } from '../../../features/admin/components/event-overview';
import { AppealAllocationForm, EventAppealsTable } from '../../../features/admin/components/appeal-allocation-form';
import { AppealsSettings } from '../../../features/admin/components/appeals-settings-form';
import { ExportData } from '../../../features/admin/components/export-data';
import { ComputeFlagsForm, ImportFlagsForm } from '../../../features/admin/components/flags-runs';
import { ImportProposalsForm } from '../../../features/admin/components/import-proposals-form';
import { ModerationAllocationForm } from '../../../features/admin/components/moderation-allocation-form';
import { ProposalAllocationForm } from '../../../features/admin/components/proposal-allocation-form';
import { ProposalScoringForm } from '../../../features/admin/components/proposal-scoring-form';
import { ReviewOutcomesForm } from '../../../features/admin/components/review-outcomes-form';
import {
  allocationConfigQuery,
  categoriesQuery,
  eventConfigQuery,
  eventQuery,
  eventsPageQuery,
  levelQualifiersQuery,
} from '../../../features/events/api/events';
import { GeneralConfigForm } from '../../../features/events/components/general-config-form';
import { LevelQualifiersForm } from '../../../features/events/components/level-qualifiers-form';
import { RemindersSection } from '../../../features/events/components/reminders-form';
import { notifyError } from '../../../lib/notify';

/** The round's Overview (issue 15 item 5), the default, then the eight sections of spec §2.17, in the side menu's order. */
export const SECTIONS = [
  'overview',
  'general',
  'levels',
  'proposalAllocation',
  'moderationAllocation',
  'outcomes',
  'scoring',
  'export',
  'import',
] as const;
type Section = (typeof SECTIONS)[number];

function GeneralSection({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const { data } = useQuery(eventConfigQuery(eventId));
  if (data === undefined) return <Loader size="sm" />;
  // Not a form of defaults: saving one would switch the event's settings off.
  if (data === null) return <Alert color="red">{t('errors.fetchConfigs')}</Alert>;
  return (
    <Stack gap="xl">
      <GeneralConfigForm key={JSON.stringify(data)} eventId={eventId} config={data} />
      <Divider />
      <RemindersSection eventId={eventId} />
    </Stack>
  );
}

function LevelsSection({ eventId }: { eventId: number }) {
  const { data } = useQuery(levelQualifiersQuery(eventId));
  if (!data) return <Loader size="sm" />;
  return <LevelQualifiersForm eventId={eventId} value={data} />;
}

/** The event's allocation flags and categories (events feature) composed with the allocation run (admin feature). */
function ProposalAllocationSection({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const flags = useQuery({ ...allocationConfigQuery(eventId), retry: false });
  const categories = useQuery(categoriesQuery(eventId));
  useEffect(() => {
    if (flags.error) notifyError(flags.error, 'errors.fetchAllocationConfig');
  }, [flags.error]);
  if (flags.isError) return <Alert color="red">{t('errors.fetchAllocationConfig')}</Alert>;
  if (!flags.data || !categories.data) return <Loader size="sm" />;
  return (
    <ProposalAllocationForm
      key={eventId}
      eventId={eventId}
      categories={categories.data}
      isGenerated={flags.data.proposal_allocation_generated}
    />
  );
}

/**
 * Moderation Allocation (spec §2.17, F-047..F-058): the allocation run, disabled once the event's allocation config
 * says it was generated (F-051, F-053), with the flag runs it draws on above it (issue 14 item 1).
 */
function ModerationAllocationSection({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const flags = useQuery({ ...allocationConfigQuery(eventId), retry: false });
  useEffect(() => {
    if (flags.error) notifyError(flags.error, 'errors.fetchAllocationConfig');
  }, [flags.error]);
  return (
    <Stack gap="xl">
      <ComputeFlagsForm key={`compute-${eventId}`} eventId={eventId} />
      <ImportFlagsForm key={`import-${eventId}`} eventId={eventId} />
      <Divider />
      {flags.isError ? (
        <Alert color="red">{t('errors.fetchAllocationConfig')}</Alert>
      ) : !flags.data ? (
        <Loader size="sm" />
      ) : (
        <>
          <ModerationAllocationForm key={eventId} eventId={eventId} isGenerated={flags.data.moderation_allocation_generated} />
          <Divider />
          <CoverageSection
            eventId={eventId}
            allocationGenerated={flags.data.moderation_allocation_generated}
            outcomesGenerated={flags.data.review_outcomes_generated === true}
          />
        </>
      )}
    </Stack>
  );
}

/**
 * Appeals (issue 28 item 2), under Review Outcomes: their window starts with the outcomes run and ends at the latest
 * with the scores run, so the settings, the list and the allocation run sit with the run that opens it.
 */
function AppealsSection({ eventId, isClosed }: { eventId: number; isClosed: boolean }) {
  return (
    <Stack gap="xl">
      <Divider />
      <AppealsSettings key={`appeal-settings-${eventId}`} eventId={eventId} />
      <EventAppealsTable eventId={eventId} />
      <AppealAllocationForm key={`appeal-allocation-${eventId}`} eventId={eventId} isClosed={isClosed} />
    </Stack>
  );
}

/** Review Outcomes and Proposal Scoring (issue 15): each run is disabled once its flag in the allocation config is set. */
function ClosingRunSection({ eventId, run }: { eventId: number; run: 'outcomes' | 'scoring' }) {
  const { t } = useTranslation();
  const flags = useQuery({ ...allocationConfigQuery(eventId), retry: false });
  useEffect(() => {
    if (flags.error) notifyError(flags.error, 'errors.fetchAllocationConfig');
  }, [flags.error]);
  if (flags.isError) return <Alert color="red">{t('errors.fetchAllocationConfig')}</Alert>;
  if (!flags.data) return <Loader size="sm" />;
  const outcomesGenerated = flags.data.review_outcomes_generated === true;
  return run === 'outcomes' ? (
    <Stack gap="xl">
      <ReviewOutcomesForm key={eventId} eventId={eventId} isGenerated={outcomesGenerated} />
      <AppealsSection eventId={eventId} isClosed={flags.data.proposal_scores_generated === true} />
    </Stack>
  ) : (
    <ProposalScoringForm
      key={eventId}
      eventId={eventId}
      isGenerated={flags.data.proposal_scores_generated === true}
      outcomesGenerated={outcomesGenerated}
    />
  );
}

/** Export Data (issue 15 item 3): the vote export may take several events, chosen among all of them. */
function ExportSection({ eventId }: { eventId: number }) {
  const events = useQuery(eventsPageQuery(0, 100));
  if (!events.data) return <Loader size="sm" />;
  return <ExportData eventId={eventId} events={events.data.data} />;
}

function ImportSection({ eventId }: { eventId: number }) {
  const categories = useQuery(categoriesQuery(eventId));
  if (!categories.data) return <Loader size="sm" />;
  return <ImportProposalsForm key={eventId} eventId={eventId} categories={categories.data} />;
}

/** /admin/{id}: one event's configuration, a side menu of eight sections (spec §2.17). */
export default function AdminEventConfiguration() {
  const { t } = useTranslation();
  const eventId = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const section: Section = SECTIONS.find((name) => name === params.get('section')) ?? 'overview';
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
            {section === 'overview' && <EventOverview key={eventId} eventId={eventId} />}
            {section === 'general' && <GeneralSection eventId={eventId} />}
            {section === 'levels' && <LevelsSection eventId={eventId} />}
            {section === 'proposalAllocation' && <ProposalAllocationSection eventId={eventId} />}
            {section === 'moderationAllocation' && <ModerationAllocationSection eventId={eventId} />}
            {section === 'outcomes' && <ClosingRunSection eventId={eventId} run="outcomes" />}
            {section === 'scoring' && <ClosingRunSection eventId={eventId} run="scoring" />}
            {section === 'export' && <ExportSection eventId={eventId} />}
            {section === 'import' && <ImportSection eventId={eventId} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
