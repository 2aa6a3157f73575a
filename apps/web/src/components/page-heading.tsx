import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4} mb="lg">
      {/* A title can be one long word (a Catalyst ID of up to 500 characters): it wraps rather than widen the page. */}
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Title>
      {children && <Text c="dimmed">{children}</Text>}
    </Stack>
  );
}
