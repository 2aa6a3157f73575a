import { useTranslation } from 'react-i18next';
import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { env } from '../../config/env';

/** The programme's five external links (spec §1). */
export const FOOTER_LINKS = [
  { key: 'footer.votingApp', href: 'https://app.projectcatalyst.io' },
  { key: 'footer.knowledgeBase', href: 'https://docs.projectcatalyst.io' },
  { key: 'footer.website', href: 'https://projectcatalyst.io' },
  { key: 'footer.privacyPolicy', href: 'https://projectcatalyst.io/privacy-policy' },
  { key: 'footer.terms', href: 'https://projectcatalyst.io/terms-and-conditions' },
] as const;

/** The footer: the programme's name and links, and the build's revision. */
export function Footer() {
  const { t } = useTranslation();
  const revision = env.buildRevision;
  return (
    <Box component="footer" py="lg" mt="xl" bg="gray.0" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Container size="lg">
        <Group justify="space-between" gap="md">
          <Group gap="xs">
            <img src="/logo.svg" alt={t('app.logoAlt')} width={32} height={32} style={{ display: 'block' }} />
            <Text fw={600}>{t('app.title')}</Text>
          </Group>
          <Group gap="md" component="nav" aria-label={t('footer.label')}>
            {FOOTER_LINKS.map((link) => (
              <Anchor key={link.key} href={link.href} target="_blank" rel="noopener noreferrer" size="sm" c="dark.6">
                {t(link.key)}
                <span className="visually-hidden"> {t('footer.newTab')}</span>
              </Anchor>
            ))}
          </Group>
        </Group>
        {revision && (
          <Text size="xs" c="dimmed" mt="sm" data-testid="build-revision">
            {t('app.build', { hash: revision.slice(0, 7) })}
          </Text>
        )}
      </Container>
    </Box>
  );
}
