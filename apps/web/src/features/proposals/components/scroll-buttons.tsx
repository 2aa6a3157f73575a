import { ActionIcon, Affix, Stack } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { scrollButtons } from '../values';

function readScroll() {
  return scrollButtons(window.scrollY, window.innerHeight, document.documentElement.scrollHeight);
}

/** Which buttons show, following the scroll position, the window's size and the page's growth. */
function useScrollButtons() {
  const [state, setState] = useState(() => ({ toTop: false, toReviews: false }));
  useEffect(() => {
    const update = () =>
      setState((previous) => {
        const next = readScroll();
        return next.toTop === previous.toTop && next.toReviews === previous.toReviews ? previous : next;
      });
    // The observer's first report, once the page is laid out, is the first reading: one here would force a layout in
    // the middle of the page's first render (issue 30 item 5).
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer.disconnect();
    };
  }, []);
  return state;
}

/**
 * The floating scroll-to-top and scroll-to-reviews buttons of spec §2.12 (D-026): 'scroll to top' once the page is
 * more than 10 px from its top, 'scroll to reviews' until it is within 10 px of its bottom. The reviews are reached by
 * reference, not by id, so that an id inside a proposal's own HTML cannot take their place. Their hint on hover or focus
 * is drawn by CSS (`.side-hint`): Mantine's Tooltip would bring its positioning library (13 KB compressed) into
 * every proposal's first load (issue 30 item 5).
 */
export function ScrollButtons({ reviews }: { reviews: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const reduceMotion = useReducedMotion();
  const { toTop, toReviews } = useScrollButtons();
  const behavior: ScrollBehavior = reduceMotion ? 'auto' : 'smooth';
  if (!toTop && !toReviews) return null;
  return (
    <Affix position={{ bottom: 24, right: 24 }} zIndex={150}>
      <Stack gap="xs">
        {toTop && (
          <span className="side-hint" data-hint={t('proposals.scrollToTop')}>
            <ActionIcon
              size="xl"
              radius="xl"
              variant="filled"
              aria-label={t('proposals.scrollToTop')}
              onClick={() => window.scrollTo({ top: 0, behavior })}
            >
              <IconArrowUp size={20} aria-hidden />
            </ActionIcon>
          </span>
        )}
        {toReviews && (
          <span className="side-hint" data-hint={t('proposals.scrollToReviews')}>
            <ActionIcon
              size="xl"
              radius="xl"
              variant="filled"
              aria-label={t('proposals.scrollToReviews')}
              onClick={() => reviews.current?.scrollIntoView({ behavior, block: 'start' })}
            >
              <IconArrowDown size={20} aria-hidden />
            </ActionIcon>
          </span>
        )}
      </Stack>
    </Affix>
  );
}
