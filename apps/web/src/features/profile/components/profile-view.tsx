import { displayCatalystId, excludedReviews, levelLabel, SubscriptionStatus, DueDiligenceStatus, UserRole } from '@cr/contract/plain';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memo, useDeferredValue, type ReactNode } from 'react';
import type { SubscriptionPublic, UserInfo } from '@cr/contract/users';
import { CopyButton } from '../../../components/copy-button';
import { CELL_CLASS, PlainTable } from '../../../components/plain';
import { ScrollTable } from '../../../components/scroll-table';
import { formatDateLong } from '../../../lib/format';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function PersonalInfoView({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode][] = [
    [
      t('profile.catalystId'),
      <Group gap={4} wrap="nowrap" key="cid">
        <Text style={{ wordBreak: 'break-all' }}>{displayCatalystId(user.catalyst_id.id)}</Text>
        <CopyButton value={displayCatalystId(user.catalyst_id.id)} />
      </Group>,
    ],
    [
      t('profile.email'),
      <Group gap="xs" key="email">
        <Text>{user.email}</Text>
        <Badge color={user.catalyst_id.email_verified ? 'green' : 'gray'} variant="light">
          {user.catalyst_id.email_verified ? t('profile.emailVerified') : t('profile.emailNotVerified')}
        </Badge>
      </Group>,
    ],
    [t('profile.status'), t(`profile.accountStatus.${user.catalyst_id.status}`)],
    [t('profile.onChain'), t(`profile.rbacStatus.${user.catalyst_id.rbac_reg_status}`)],
    [t('profile.role'), user.extra.role === UserRole.admin ? t('profile.admin') : t('profile.user')],
    [t('profile.registeredAt'), formatDateLong(user.extra.registered_at)],
  ];
  return (
    <PlainTable vertical style={{ border: 'none' }}>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            {/* A long address or Catalyst ID wraps inside a phone's width (issue 19). */}
            <th className="profile-label">{label}</th>
            <td style={{ overflowWrap: 'anywhere' }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </PlainTable>
  );
}
const PersonalInfo = memo(PersonalInfoView);

/** One figure with its label and, where it is computed, how (the formula shown under it). */
function Stat({ label, value, testId, hint }: { label: string; value: number | string; testId: string; hint?: string }) {
  return (
    <Stack gap={0} miw={110}>
      <Text size="xl" fw={700} data-testid={`stat-${testId}`}>
        {value}
      </Text>
      <Text size="sm">{label}</Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Reviews in earlier events (spec §2.16, §3): the server's figures, counted from the past rounds' outcomes, with its
 * approval rate (valid / (submitted − blank), the figure the level qualifiers read) as a rounded percent; excluded =
 * submitted − blank − valid.
 */
function HistoricStatsView({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const { reviews, moderations } = user.extra.historic_stats;
  const counts = { submitted: reviews.submitted, blank: reviews.blank, valid: reviews.valid };
  return (
    <Stack>
      <Group gap="xl" align="flex-start">
        <Stat testId="funds" label={t('profile.stats.funds')} value={reviews.active_funds} />
        <Stat testId="submitted" label={t('profile.stats.submitted')} value={reviews.submitted} />
        <Stat testId="blank" label={t('profile.stats.blank')} value={reviews.blank} />
        <Stat testId="valid" label={t('profile.stats.accepted')} value={reviews.valid} />
        <Stat
          testId="excluded"
          label={t('profile.stats.excluded')}
          value={excludedReviews(counts)}
          hint={t('profile.stats.excludedHint')}
        />
        <Stat
          testId="approval"
          label={t('profile.stats.approvalRate')}
          value={`${Math.round(reviews.approval_rate * 100)}%`}
          hint={t('profile.stats.approvalHint')}
        />
      </Group>
      {moderations.submitted > 0 && (
        <Group gap="xl">
          <Stat testId="moderation-funds" label={t('profile.stats.moderationFunds')} value={moderations.active_funds} />
          <Stat testId="moderations" label={t('profile.stats.moderations')} value={moderations.submitted} />
        </Group>
      )}
    </Stack>
  );
}
const HistoricStats = memo(HistoricStatsView);

/** The current events' figures (spec §3 "Reviewer stats"), worded for the user themselves or, for an admin, about them. */
function CurrentStatsView({ user, own }: { user: UserInfo; own: boolean }) {
  const { t } = useTranslation();
  const current = user.extra.stats.reviews;
  const person = own ? 'own' : 'other';
  return (
    <Group gap="xl" align="flex-start">
      <Stat testId="allocations" label={t(`profile.stats.allocations.${person}`)} value={current.allocations} />
      <Stat testId="current-submitted" label={t('profile.stats.submitted')} value={current.submitted} />
      <Stat testId="allocated-submitted" label={t(`profile.stats.allocatedSubmitted.${person}`)} value={current.allocated_submitted} />
    </Group>
  );
}
const CurrentStats = memo(CurrentStatsView);

const dueDiligenceColor: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'green', 4: 'red' };

/** Shown only once due diligence has started (status above 0, spec §2.16). */
function DueDiligenceView({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const { status, url } = user.extra.due_diligence;
  const open = status === DueDiligenceStatus.initialized || status === DueDiligenceStatus.pending;
  return (
    <Group gap="md">
      <Badge color={dueDiligenceColor[status] ?? 'gray'} variant="light" data-testid="due-diligence-status">
        {t(`dueDiligence.status.${status}`, { defaultValue: String(status) })}
      </Badge>
      {open && url && (
        <Anchor href={url} target="_blank" rel="noopener noreferrer">
          {t('dueDiligence.open')}
        </Anchor>
      )}
    </Group>
  );
}
const DueDiligence = memo(DueDiligenceView);

/**
 * What a subscription row may offer beyond its data (the viewer's own profile adds Subscribe on an invitation): null
 * when the row offers nothing, so that a column of nothing is not shown.
 */
export type SubscriptionAction = (subscription: SubscriptionPublic) => ReactNode | null;

/**
 * The user's subscriptions, newest first (spec §2.16). The categories and actions columns show only when some row
 * has something in them (preferred categories are an LV1 matter; an action is an invitation to answer).
 */
function Subscriptions({ user, action }: { user: UserInfo; action?: SubscriptionAction | undefined }) {
  const { t } = useTranslation();
  const items = user.extra.subscriptions;
  if (items.length === 0) return <Text c="dimmed">{t('profile.noSubscriptions')}</Text>;
  const actions = new Map(items.map((item) => [item.row_id, action?.(item) ?? null]));
  const withActions = [...actions.values()].some((node) => node !== null);
  const withCategories = items.some((item) => item.extra.preferred_categories.length > 0);
  const columns = ['event', 'level', 'status', 'anonymousId', ...(withCategories ? ['categories'] : []), 'subscribedAt'];
  return (
    <ScrollTable minWidth={640} label={t('profile.subscriptions')} stickyFirstColumn>
      <PlainTable aria-label={t('profile.subscriptions')}>
        <thead>
          <tr>
            {columns.map((name) => (
              <th key={name}>{t(`profile.subscriptionColumns.${name}`)}</th>
            ))}
            {withActions && <th>{t('profile.subscriptionColumns.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.row_id}>
              <td className={CELL_CLASS}>{item.event.name}</td>
              <td className={CELL_CLASS}>{levelLabel(item.role)}</td>
              <td className={CELL_CLASS}>
                <Stack gap={2}>
                  <Text size="sm">{t(`profile.subscriptionStatus.${item.status}`, { defaultValue: String(item.status) })}</Text>
                  {item.status === SubscriptionStatus.subscribed && item.extra.sumsub_link && (
                    <Anchor size="sm" href={item.extra.sumsub_link} target="_blank" rel="noopener noreferrer">
                      {t('profile.verifyIdentity')}
                    </Anchor>
                  )}
                </Stack>
              </td>
              <td className={CELL_CLASS} style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>
                {item.extra.anonymous_id}
              </td>
              {withCategories && (
                <td className={CELL_CLASS}>{item.extra.preferred_categories.map((category) => category.title).join(', ')}</td>
              )}
              <td className={CELL_CLASS}>{formatDateLong(item.extra.subscribed_at)}</td>
              {withActions && <td className={CELL_CLASS}>{actions.get(item.row_id)}</td>}
            </tr>
          ))}
        </tbody>
      </PlainTable>
    </ScrollTable>
  );
}

/**
 * A user's profile sections (spec §2.16); the viewer's own profile (`own`) adds its forms as children and its
 * subscription actions; an admin's read-only view of another user passes none and speaks of the user in the third person.
 */
export function ProfileView({
  user,
  own,
  subscriptionAction,
  children,
}: {
  user: UserInfo;
  own: boolean;
  subscriptionAction?: SubscriptionAction;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  // What is below a phone's first screen renders in React's background pass, after the first paint.
  const below = useDeferredValue(true, false);
  return (
    <Stack>
      <Section title={t('profile.personal')}>
        <PersonalInfo user={user} />
      </Section>
      <Section title={t('profile.subscriptions')}>
        <Subscriptions user={user} action={subscriptionAction} />
      </Section>
      {below && (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section title={t('profile.historic')}>
              <HistoricStats user={user} />
            </Section>
            <Section title={t('profile.current')}>
              <CurrentStats user={user} own={own} />
            </Section>
          </SimpleGrid>
          {user.extra.due_diligence.status > 0 && (
            <Section title={t('dueDiligence.title')}>
              <DueDiligence user={user} />
            </Section>
          )}
          {children}
        </>
      )}
    </Stack>
  );
}
