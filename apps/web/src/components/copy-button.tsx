import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type CopyTooltipComponent from './copy-tooltip';
import { ICON_BUTTON_CLASS } from './plain';

// The tooltip is loaded when a pointer first rests on a copy button: a list of them does not bring the tooltip's
// positioning code into the page's first load (issue 16).
let loadedTooltip: typeof CopyTooltipComponent | undefined;
const loadTooltip = () =>
  import('./copy-tooltip').then((module) => {
    loadedTooltip = module.default;
    return module.default;
  });

/**
 * Copies a value to the clipboard and says so: a tooltip while the pointer is on it ('Copied' once it did). A plain
 * button (components/plain.tsx): a list shows one a row.
 *
 * Wrapping the button in the tooltip mounts it anew. That must never happen between a press and its click (the click
 * would be lost): the tooltip goes around the button only once it is loaded and no press is under way, and it stays.
 */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useTranslation();
  const [hovered, setHovered] = useState(false);
  const [Tooltip, setTooltip] = useState(() => loadedTooltip);
  const [pressed, setPressed] = useState(false);
  const [copied, setCopied] = useState(false);
  const reset = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reset.current), []);
  const wrapped = useRef(false);
  wrapped.current ||= Tooltip !== undefined && !pressed;
  const copy = () => {
    // As Mantine's CopyButton: 'Copied' once the Clipboard API says it is done, for 1.5 s.
    void navigator.clipboard?.writeText(value).then(
      () => {
        setCopied(true);
        clearTimeout(reset.current);
        reset.current = setTimeout(() => setCopied(false), 1500);
      },
      () => undefined,
    );
  };
  const button = (
    <button
      type="button"
      className={ICON_BUTTON_CLASS}
      data-copied={copied || undefined}
      onPointerDown={() => setPressed(true)}
      onPointerCancel={() => setPressed(false)}
      onClick={() => {
        setPressed(false);
        copy();
      }}
      onMouseEnter={() => {
        setHovered(true);
        if (!Tooltip) void loadTooltip().then((component) => setTooltip(() => component));
      }}
      onMouseLeave={() => {
        setHovered(false);
        setPressed(false);
      }}
      aria-label={`${label ?? t('common.copy')}: ${value}`}
    >
      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
    </button>
  );
  if (!Tooltip || !wrapped.current) return button;
  return (
    <Tooltip label={copied ? t('common.copied') : (label ?? t('common.copy'))} opened={hovered}>
      {button}
    </Tooltip>
  );
}
