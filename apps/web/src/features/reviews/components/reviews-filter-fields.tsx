import { Button, Checkbox, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { RANKING_VALUES } from '../filters';
import type { FilterDefaults } from '../filters';
import type { useReviewFilters } from '../use-review-filters';

/** The 'pending' filter value is a ranking on the wire; its label is the plain state (spec §4). */
const RANKING_LABELS = ['pending', 'included', 'excluded_moderation', 'excluded_threshold'] as const;

/** The filter sidebar's state and choices (reviews-filters.tsx). */
export interface ReviewsFiltersProps {
  state: ReturnType<typeof useReviewFilters>;
  defaults: FilterDefaults;
  /** The current events' categories (objectives), composed by the route. */
  categories: { value: string; label: string }[];
}

/**
 * The filters' inputs (reviews-filters.tsx): loaded apart from the page's first load, with the comboboxes' positioning
 * code they bring (three of them are comboboxes).
 */
export default function ReviewsFilterFields({ state, defaults, categories, isWide }: ReviewsFiltersProps & { isWide: boolean }) {
  const { t } = useTranslation();
  const { filters, inputs, setInput, set, clear, isFiltered } = state;
  const rankingOptions = RANKING_VALUES.map((value, index) => ({
    value: String(value),
    label: t(`reviews.ranking.${RANKING_LABELS[index]}`),
  }));

  return (
    <Stack gap="sm" role="search" aria-label={t('reviews.filters')} mt={isWide ? 0 : 'sm'}>
      <TextInput
        label={t('reviews.fields.proposalId')}
        inputMode="numeric"
        value={inputs.proposalId}
        onChange={(event) => setInput.proposalId(event.currentTarget.value)}
        maxLength={12}
      />
      <TextInput
        label={t('reviews.fields.proposal')}
        value={inputs.proposal}
        onChange={(event) => setInput.proposal(event.currentTarget.value)}
        maxLength={200}
      />
      <Select
        label={t('reviews.fields.objective')}
        data={categories}
        value={filters.objective || null}
        onChange={(value) => set('objective', value ?? '')}
        clearable
        searchable
        nothingFoundMessage={t(categories.length === 0 ? 'multiSelect.empty' : 'multiSelect.noMatch')}
        placeholder={t('reviews.anyObjective')}
      />
      <AppMultiSelect
        label={t('reviews.fields.rankings')}
        data={rankingOptions}
        value={filters.rankings.map(String)}
        onChange={(values) => set('rankings', values.map(Number))}
        clearable
      />
      <Checkbox
        label={t('reviews.fields.includePending')}
        checked={filters.includePending}
        onChange={(event) => set('includePending', event.currentTarget.checked)}
      />
      {defaults.myReviewsAllowed && (
        <Checkbox
          label={t('reviews.fields.myReviews')}
          description={defaults.myReviewsLocked ? t('reviews.myReviewsLocked') : undefined}
          checked={filters.myReviews}
          disabled={defaults.myReviewsLocked}
          onChange={(event) => set('myReviews', event.currentTarget.checked)}
        />
      )}
      <TagsInput
        label={t('reviews.fields.assessors')}
        description={t('reviews.assessorsHint')}
        value={filters.assessors}
        onChange={(values) => set('assessors', [...new Set(values.map((value) => value.trim()).filter(Boolean))])}
        clearable
        maxTags={100}
      />
      <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={clear} disabled={!isFiltered}>
        {t('reviews.clearFilters')}
      </Button>
    </Stack>
  );
}
