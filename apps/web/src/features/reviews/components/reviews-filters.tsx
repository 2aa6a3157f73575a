import { Button, Collapse, Paper, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewsFiltersProps } from './reviews-filter-fields';

const ReviewsFilterFields = lazy(() => import('./reviews-filter-fields'));

/**
 * The filter sidebar of spec §2.13 (E-029): proposal id, include pending, proposal title, objective, my reviews,
 * assessors and rankings, and a clear button (E-028). On a phone it folds into a panel opened by a button.
 */
export function ReviewsFilters({ state, defaults, categories }: ReviewsFiltersProps) {
  const { t } = useTranslation();
  const isWide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [opened, { toggle }] = useDisclosure(false);
  // On a phone the panel starts folded: its inputs (three of them comboboxes) mount when it is first opened, not with
  // the page (issue 30 item 5: the page's first render on a phone), and stay for the fold's animation after.
  const [unfolded, setUnfolded] = useState(false);
  if (opened && !unfolded) setUnfolded(true);
  const panelId = useId();
  return (
    <Paper withBorder p="md">
      {isWide ? (
        <Title order={2} size="h4" mb="sm">
          {t('reviews.filters')}
        </Title>
      ) : (
        <Button
          variant="subtle"
          fullWidth
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          onClick={toggle}
          aria-expanded={opened}
          aria-controls={panelId}
        >
          {opened ? t('reviews.hideFilters') : t('reviews.showFilters')}
        </Button>
      )}
      <Collapse in={isWide || opened} id={panelId}>
        {(isWide || unfolded) && (
          <Suspense fallback={null}>
            <ReviewsFilterFields state={state} defaults={defaults} categories={categories} isWide={isWide} />
          </Suspense>
        )}
      </Collapse>
    </Paper>
  );
}
