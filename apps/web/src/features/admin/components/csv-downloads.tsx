import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../lib/notify';
import { CSV_EXPORTS, downloadCsv, type CsvExport } from '../api/closing-runs';

/** The fixed text of a failed export (spec §8 "export"; G-029); the server's message wins when it sent one. */
export const EXPORT_FAILED = 'adminRuns.export.failed';

/** The four CSV downloads (G-025..G-028), each through the API client with the admin's token. */
export function CsvDownloads({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [busy, setBusy] = useState<CsvExport | null>(null);
  async function download(which: CsvExport) {
    setBusy(which);
    try {
      await downloadCsv(which, eventId);
    } catch (error) {
      notifyError(error, EXPORT_FAILED);
    } finally {
      setBusy(null);
    }
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        {t('adminRuns.export.downloadsTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('adminRuns.export.downloadsIntro')}
      </Text>
      <Stack gap="xs" align="flex-start">
        {CSV_EXPORTS.map((which) => (
          <Group key={which} gap="sm" wrap="nowrap">
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={busy === which}
              disabled={busy !== null && busy !== which}
              onClick={() => void download(which)}
            >
              {t(`adminRuns.export.csv.${which}`)}
            </Button>
            <Text size="sm" c="dimmed">
              {t(`adminRuns.export.csv.${which}Hint`)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
