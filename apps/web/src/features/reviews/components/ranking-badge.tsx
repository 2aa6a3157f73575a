import { rankingLabel } from '@cr/contract/plain';
import { PlainBadge } from '../../../components/plain';
import { useTranslation } from 'react-i18next';

/** The one colour of each ranking, wherever a ranking shows (spec §4). */
export const RANKING_COLORS = {
  pending: 'gray',
  pending_moderation: 'yellow',
  included: 'green',
  excluded_moderation: 'red',
  excluded_threshold: 'orange',
} as const;

/**
 * A review's ranking as shown (spec §4): pending reads 'pending moderation' unless the review is moderated (E-041).
 * A plain Badge (components/plain.tsx): lists show one a row (issue 30 item 5).
 */
export function RankingBadge({
  ranking,
  moderated,
  size = 'sm',
  testId = 'ranking-badge',
}: {
  ranking: number | null;
  moderated: boolean;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
}) {
  const { t } = useTranslation();
  const label = rankingLabel(ranking, moderated);
  return (
    <PlainBadge
      color={RANKING_COLORS[label]}
      variant="light"
      size={size}
      data-testid={testId}
      data-ranking={label}
      style={{ textTransform: 'none', minWidth: 'max-content' }}
    >
      {t(`reviews.ranking.${label}`)}
    </PlainBadge>
  );
}
