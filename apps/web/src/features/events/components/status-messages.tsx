import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import type { Severity, StatusMessage } from '@cr/contract/events';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../../lib/sanitize';

const COLORS: Record<Severity, string> = { info: 'blue', warning: 'yellow', critical: 'red', success: 'green' };

/** Only an http(s) address becomes the action link: never a javascript: or data: URL, whatever the server sent. */
const isWebAddress = (url: string | null | undefined): boolean => !!url && /^https?:\/\//i.test(url.trim());

/** The active status messages, their HTML sanitised (DOMPurify: loaded with this module, only when there are some). */
export function StatusMessages({ messages }: { messages: StatusMessage[] }) {
  const { t } = useTranslation();
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
