import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDebouncedText } from '../../../lib/use-debounced-text';

const PARAM = 'title';

/**
 * The title filter of spec §2.11, kept in the query parameter `title`: typing is debounced 300 ms, the value is
 * trimmed and an empty one is dropped; a new filter starts again at the first page. Going back in history puts the
 * query's value back into the field.
 */
export function useTitleFilter() {
  const [params, setParams] = useSearchParams();
  const applied = params.get(PARAM) ?? '';
  const write = (value: string) =>
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
  const [input, setInput] = useDebouncedText(applied, write);

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
