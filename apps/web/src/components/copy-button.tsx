import { ActionIcon, CopyButton as MantineCopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// Loaded when a pointer first rests on a copy button: a list of them does not bring the tooltip's positioning code
// into the page's first load (issue 16).
const CopyTooltip = lazy(() => import('./copy-tooltip'));

/** Copies a value to the clipboard and says so: a tooltip while the pointer is on it ('Copied' once it did). */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useTranslation();
  const [hovered, setHovered] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <MantineCopyButton value={value} timeout={1500}>
      {({ copied, copy }) => {
        const button = (
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            onMouseEnter={() => {
              setWanted(true);
              setHovered(true);
            }}
            onMouseLeave={() => setHovered(false)}
            aria-label={`${label ?? t('common.copy')}: ${value}`}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        );
        if (!wanted) return button;
        return (
          <Suspense fallback={button}>
            <CopyTooltip label={copied ? t('common.copied') : (label ?? t('common.copy'))} opened={hovered}>
              {button}
            </CopyTooltip>
          </Suspense>
        );
      }}
    </MantineCopyButton>
  );
}
