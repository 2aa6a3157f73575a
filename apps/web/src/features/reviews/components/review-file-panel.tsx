import { Alert, Button, FileButton, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import type { ReviewFile, ReviewFileResult } from '@cr/contract/review-files';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { downloadReviewFile, useUploadReviewFile } from '../api/review-file';

type Named = { proposal_id: number; proposal_title: string };

function Section({ title, items, detail }: { title: string; items: Named[]; detail?: (item: Named) => string }) {
  if (items.length === 0) return null;
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title} ({items.length})
      </Title>
      <List size="sm" spacing={2}>
        {items.map((item, index) => (
          <List.Item key={`${item.proposal_id}-${index}`}>
            {item.proposal_title}
            {detail ? ` — ${detail(item)}` : ''}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** What a dry run would do, or what the real run did. */
function ResultView({ result }: { result: ReviewFileResult }) {
  const { t } = useTranslation();
  const prefix = result.dry_run ? 'reviewFile.plan' : 'reviewFile.done';
  return (
    <Stack gap="sm">
      <Section title={t(`${prefix}.created`)} items={result.created} />
      <Section title={t(`${prefix}.updated`)} items={result.updated} />
      <Section title={t('reviewFile.unchanged')} items={result.unchanged} />
      <Section title={t('reviewFile.skipped')} items={result.skipped} />
      <Section
        title={t('reviewFile.conflicts')}
        items={result.conflicts}
        detail={(item) => (item as ReviewFileResult['conflicts'][number]).message}
      />
      <Section
        title={t('reviewFile.errors')}
        items={result.errors}
        detail={(item) => {
          const error = item as ReviewFileResult['errors'][number];
          return `${t('reviewFile.field', { field: error.field })}: ${error.message}`;
        }}
      />
      <Section
        title={t('reviewFile.refused')}
        items={result.refused}
        detail={(item) => (item as ReviewFileResult['refused'][number]).message}
      />
    </Stack>
  );
}

/**
 * Offline review files on My proposals (issue 29 item 2): download the allocation (JSON to fill in, Markdown to read);
 * upload the filled JSON: a dry run first shows what would be created or updated, the conflicts (reviews changed
 * online since) and the errors by proposal and field, then a confirmed run writes.
 */
export function ReviewFilePanel() {
  const { t } = useTranslation();
  const upload = useUploadReviewFile();
  const [file, setFile] = useState<ReviewFile | null>(null);
  const [result, setResult] = useState<ReviewFileResult | null>(null);
  const [readError, setReadError] = useState<string | null>(null);

  const download = async (format: 'json' | 'markdown') => {
    try {
      await downloadReviewFile(format);
    } catch (error) {
      notifyError(error, 'reviewFile.downloadFailed');
    }
  };
  const choose = async (chosen: File | null) => {
    if (!chosen) return;
    setReadError(null);
    let parsed: ReviewFile;
    try {
      parsed = JSON.parse(await chosen.text()) as ReviewFile;
    } catch {
      setReadError(t('reviewFile.notJson'));
      return;
    }
    try {
      setResult(await upload.mutateAsync({ file: parsed, dryRun: true }));
      setFile(parsed);
    } catch (error) {
      notifyError(error, 'reviewFile.uploadFailed');
    }
  };
  const confirm = async () => {
    if (!file) return;
    try {
      const done = await upload.mutateAsync({ file, dryRun: false });
      setResult(done);
      setFile(null);
      notifySuccess('reviewFile.written', 'reviews.saved', { created: done.created.length, updated: done.updated.length });
    } catch (error) {
      notifyError(error, 'reviewFile.uploadFailed');
    }
  };
  const close = () => {
    setResult(null);
    setFile(null);
  };
  const writes = result ? result.created.length + result.updated.length : 0;

  return (
    <Stack gap="xs" component="section" aria-labelledby="review-file-title" mb="md">
      <Title order={2} size="h4" id="review-file-title">
        {t('reviewFile.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('reviewFile.hint')}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={() => void download('json')}>
          {t('reviewFile.downloadJson')}
        </Button>
        <Button variant="default" size="xs" onClick={() => void download('markdown')}>
          {t('reviewFile.downloadMarkdown')}
        </Button>
        <FileButton onChange={(chosen) => void choose(chosen)} accept="application/json,.json">
          {(props) => (
            <Button size="xs" loading={upload.isPending && !result} {...props}>
              {t('reviewFile.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {readError && (
        <Alert color="red" role="alert">
          {readError}
        </Alert>
      )}
      <Modal
        opened={result !== null}
        onClose={close}
        title={t(result?.dry_run ? 'reviewFile.planTitle' : 'reviewFile.doneTitle')}
        size="lg"
      >
        {result && (
          <Stack gap="md">
            <ResultView result={result} />
            {result.dry_run && result.errors.length > 0 && <Alert color="red">{t('reviewFile.fixErrors')}</Alert>}
            {result.dry_run ? (
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={close}>
                  {t('reviewFile.cancel')}
                </Button>
                <Button onClick={() => void confirm()} disabled={result.errors.length > 0 || writes === 0} loading={upload.isPending}>
                  {t('reviewFile.confirm', { count: writes })}
                </Button>
              </Group>
            ) : (
              <Group justify="flex-end">
                <Button onClick={close}>{t('reviewFile.close')}</Button>
              </Group>
            )}
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
