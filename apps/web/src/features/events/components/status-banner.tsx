import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import type { Severity } from '@cr/contract/events';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../../lib/sanitize';
import { statusQuery } from '../api/events';

const COLORS: Record<Severity, string> = { info: 'blue', warning: 'yellow', critical: 'red', success: 'green' };

/** Above the navigation: every active status message (spec §2.3), its HTML sanitised, coloured by severity. */
/** Only an http(s) address becomes the action link: never a javascript: or data: URL, whatever the server sent. */
const isWebAddress = (url: string | null | undefined): boolean => !!url && /^https?:\/\//i.test(url.trim());

export function StatusBanner() {
  const { t } = useTranslation();
  const { data } = useQuery(statusQuery);
  const messages = (data ?? []).filter((message) => message.is_active);
  if (messages.length === 0) return null;
  return (
    <Box component="section" aria-label={t('status.bannerLabel')} data-testid="status-banner">
      {messages.map((message) => {
        const color = COLORS[message.severity];
        return (
          <Box
            key={message.row_id}
            role={message.severity === 'critical' ? 'alert' : 'status'}
            bg={`${color}.0`}
            c={`${color}.9`}
            py={6}
            style={{ borderBottom: `1px solid var(--mantine-color-${color}-3)` }}
            data-severity={message.severity}
          >
            <Container size="lg">
              <Group gap="sm" justify="center" wrap="wrap">
                <Text size="sm" fw={500} className="status-message" dangerouslySetInnerHTML={{ __html: sanitizeHtml(message.message) }} />
                {isWebAddress(message.action_url) && (
                  <Anchor
                    href={message.action_url!}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                    fw={700}
                    c={`${color}.9`}
                    underline="always"
                  >
                    {message.action_text || t('status.moreInfo')}
                  </Anchor>
                )}
              </Group>
            </Container>
          </Box>
        );
      })}
    </Box>
  );
}
