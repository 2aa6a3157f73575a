import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Options shown at most (spec §9). */
export const MULTI_SELECT_LIMIT = 1000;

/** Mantine's multi-select with the spec's three messages (§8) and up to 1000 options shown. */
export function AppMultiSelect({ data = [], maxValues, value, description, ...props }: MultiSelectProps) {
  const { t } = useTranslation();
  const isEmpty = Array.isArray(data) && data.length === 0;
  const atMax = maxValues !== undefined && (value?.length ?? 0) >= maxValues;
  return (
    <MultiSelect
      data={data}
      value={value}
      maxValues={maxValues}
      searchable
      limit={MULTI_SELECT_LIMIT}
      nothingFoundMessage={isEmpty ? t('multiSelect.empty') : t('multiSelect.noMatch')}
      description={atMax ? t('multiSelect.max', { n: maxValues }) : description}
      {...props}
    />
  );
}
