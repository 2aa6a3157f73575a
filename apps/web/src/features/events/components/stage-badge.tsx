import type { EventStage } from '@cr/contract/events';
import { useTranslation } from 'react-i18next';
import { PlainBadge } from '../../../components/plain';
import { useCurrentEvents } from '../api/events';

export const STAGE_COLORS: Record<EventStage, string> = {
  inter_fund_period: 'gray',
  inactive: 'gray',
  subscription_open: 'teal',
  review_open: 'brand',
  moderation_open: 'orange',
};

/**
 * The current event stage in the navigation bar, hidden while inactive (spec §2.3). On phones it reads a short form
 * ('Review'), the full text kept for screen readers (issue 19); styles.css switches the two.
 */
export function StageBadge() {
  const { t } = useTranslation();
  const { stage } = useCurrentEvents();
  if (stage === 'inactive') return null;
  return (
    <PlainBadge
      variant="light"
      color={STAGE_COLORS[stage]}
      data-testid="stage-badge"
      data-stage={stage}
      title={t('stage.title')}
      className="stage-badge"
    >
      <span className="stage-badge-full">{t(`stage.${stage}`)}</span>
      <span className="stage-badge-short" aria-hidden>
        {t(`stage.short.${stage}`)}
      </span>
    </PlainBadge>
  );
}
