import { Button, Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/** Filter debounce (spec §9). */
export const FILTER_DEBOUNCE_MS = 300;
const PARAM = 'title';

/**
 * The title filter of spec §2.11, kept in the query parameter `title`: typing is debounced 300 ms, the value is
 * trimmed and an empty one is dropped; a new filter starts again at the first page. Going back in history puts the
 * query's value back into the field.
 */
export function useTitleFilter() {
  const [params, setParams] = useSearchParams();
  const applied = params.get(PARAM) ?? '';
  const [input, setInput] = useState(applied);
  const [debounced] = useDebouncedValue(input.trim(), FILTER_DEBOUNCE_MS);
  // What this hook last wrote, so that its own write does not come back and overwrite newer typing.
  const written = useRef(applied);

  const write = (value: string) => {
    written.current = value;
    setParams(
      (current) => {
        if ((current.get(PARAM) ?? '') === value) return current;
        const next = new URLSearchParams(current);
        if (value) next.set(PARAM, value);
        else next.delete(PARAM);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  };

  useEffect(() => {
    write(debounced);
    // Only when the typed value settles: setParams changes with every URL change, and running again then would write
    // a stale value over a navigation (back, forward, a link).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  useEffect(() => {
    if (applied !== written.current) {
      written.current = applied;
      setInput(applied);
    }
  }, [applied]);

  const clear = () => {
    setInput('');
    write('');
  };

  return { input, setInput, clear, title: applied };
}

export function TitleFilter({ input, setInput, clear }: Pick<ReturnType<typeof useTitleFilter>, 'input' | 'setInput' | 'clear'>) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="sm" mb="md" role="search" aria-label={t('proposals.filters')}>
      <TextInput
        label={t('proposals.filterByTitle')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={input}
        onChange={(event) => setInput(event.currentTarget.value)}
        maxLength={200}
        w={{ base: '100%', xs: 360 }}
      />
      <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={clear} disabled={input === ''}>
        {t('proposals.clearFilter')}
      </Button>
    </Group>
  );
}
