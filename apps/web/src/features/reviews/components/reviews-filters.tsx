import { Button, Checkbox, Collapse, Paper, Select, Stack, TagsInput, TextInput, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconX } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { InTurn } from '../../../components/in-turn';
import { RANKING_VALUES, type FilterDefaults } from '../filters';
import type { useReviewFilters } from '../use-review-filters';

/** The 'pending' filter value is a ranking on the wire; its label is the plain state (spec §4). */
const RANKING_LABELS = ['pending', 'included', 'excluded_moderation', 'excluded_threshold'] as const;

interface ReviewsFiltersProps {
  state: ReturnType<typeof useReviewFilters>;
  defaults: FilterDefaults;
  /** The current events' categories (objectives), composed by the route. */
  categories: { value: string; label: string }[];
}

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
  const { filters, inputs, setInput, set, clear, isFiltered } = state;
  const rankingOptions = RANKING_VALUES.map((value, index) => ({
    value: String(value),
    label: t(`reviews.ranking.${RANKING_LABELS[index]}`),
  }));

  const fields = (
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
        {/* Beside the list on a wide screen: the inputs mount a turn after the page (three are comboboxes). */}
        {isWide ? <InTurn>{fields}</InTurn> : unfolded && fields}
      </Collapse>
    </Paper>
  );
}
