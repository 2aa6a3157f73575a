import { ActionIcon, CopyButton as MantineCopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Copies a value to the clipboard and says so. */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <MantineCopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : (label ?? t('common.copy'))} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={`${label ?? t('common.copy')}: ${value}`}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </MantineCopyButton>
  );
}
