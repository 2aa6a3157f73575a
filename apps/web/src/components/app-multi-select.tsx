import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Options shown at most (spec §9). */
export const MULTI_SELECT_LIMIT = 1000;

/** The i18n key and values of a message. */
export interface MessageKey {
  key: string;
  values?: Record<string, unknown>;
}

/**
 * The spec's three multi-select messages (§8): 'List is empty.' when there are no options, else 'No elements found…'
 * when the search matches nothing, and 'Maximum of {n} options selected…' in place of the description once the
 * selection is at its maximum. `description` is undefined when the caller's own description stays.
 */
export function multiSelectMessages({ data, value, maxValues }: Pick<MultiSelectProps, 'data' | 'value' | 'maxValues'>): {
  nothingFound: MessageKey;
  description: MessageKey | undefined;
} {
  const isEmpty = data === undefined || (Array.isArray(data) && data.length === 0);
  const atMax = maxValues !== undefined && (value?.length ?? 0) >= maxValues;
  return {
    nothingFound: { key: isEmpty ? 'multiSelect.empty' : 'multiSelect.noMatch' },
    description: atMax ? { key: 'multiSelect.max', values: { n: maxValues } } : undefined,
  };
}

/** Mantine's multi-select with the spec's three messages (§8) and up to 1000 options shown. */
export function AppMultiSelect({ data = [], maxValues, value, description, ...props }: MultiSelectProps) {
  const { t } = useTranslation();
  const messages = multiSelectMessages({ data, value, maxValues });
  return (
    <MultiSelect
      data={data}
      value={value}
      maxValues={maxValues}
      searchable
      limit={MULTI_SELECT_LIMIT}
      nothingFoundMessage={t(messages.nothingFound.key)}
      description={messages.description ? t(messages.description.key, messages.description.values) : description}
      {...props}
    />
  );
}
