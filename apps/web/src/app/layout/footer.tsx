import { useTranslation } from 'react-i18next';
import { ANCHOR_CLASS, PlainContainer, PlainGroup, TEXT_CLASS, textSize } from '../../components/plain';
import { env } from '../../config/env';

/** The programme's five external links (spec §1). */
export const FOOTER_LINKS = [
  { key: 'footer.votingApp', href: 'https://app.projectcatalyst.io' },
  { key: 'footer.knowledgeBase', href: 'https://docs.projectcatalyst.io' },
  { key: 'footer.website', href: 'https://projectcatalyst.io' },
  { key: 'footer.privacyPolicy', href: 'https://projectcatalyst.io/privacy-policy' },
  { key: 'footer.terms', href: 'https://projectcatalyst.io/terms-and-conditions' },
] as const;

const LINK_STYLE = { ...textSize('sm'), color: 'var(--mantine-color-dark-6)' };
const REVISION_STYLE = { ...textSize('xs'), marginTop: 'var(--mantine-spacing-sm)' };

/**
 * The footer, of plain elements with Mantine's classes (components/plain.tsx): as Mantine components it was a phone's
 * task of ~130 ms on every first load (issue 30 item 5).
 */
export function Footer() {
  const { t } = useTranslation();
  const revision = env.buildRevision;
  return (
    <footer
      style={{
        paddingBlock: 'var(--mantine-spacing-lg)',
        marginTop: 'var(--mantine-spacing-xl)',
        borderTop: '1px solid var(--mantine-color-gray-3)',
        background: 'var(--mantine-color-gray-0)',
      }}
    >
      <PlainContainer size="lg">
        <PlainGroup justify="space-between" gap="md">
          <PlainGroup gap="xs">
            <img src="/logo.svg" alt={t('app.logoAlt')} width={32} height={32} style={{ display: 'block' }} />
            <p className={TEXT_CLASS} style={{ fontWeight: 600 }}>
              {t('app.title')}
            </p>
          </PlainGroup>
          <PlainGroup gap="md" component="nav" aria-label={t('footer.label')}>
            {FOOTER_LINKS.map((link) => (
              <a
                key={link.key}
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                className={ANCHOR_CLASS}
                data-underline="hover"
                style={LINK_STYLE}
              >
                {t(link.key)}
                <span className="visually-hidden"> {t('footer.newTab')}</span>
              </a>
            ))}
          </PlainGroup>
        </PlainGroup>
        {revision && (
          <p className={`${TEXT_CLASS} plain-dimmed`} style={REVISION_STYLE} data-testid="build-revision">
            {t('app.build', { hash: revision.slice(0, 7) })}
          </p>
        )}
      </PlainContainer>
    </footer>
  );
}
