import { FieldType } from '@cr/contract/plain';
import { Anchor, Badge, Group, List, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { ProposalExtraField } from '@cr/contract/proposals';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { answerBoolean, answerParts, formatFunds, formatWholeNumber, groupedTagText, isWebUrl, tagItems } from '../values';
import { PlainTextSm } from '../../../components/plain';

/**
 * The markdown renderer (marked and DOMPurify, 19 KB compressed) loads with the first markdown answer, not with the
 * page's first load; until it has, the answer's box is empty and says it is busy, as while it renders.
 */
const MarkdownText = lazy(() => import('./markdown-text').then((module) => ({ default: module.MarkdownText })));
function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="proposal-markdown" aria-busy />}>
      <MarkdownText text={text} />
    </Suspense>
  );
}

/** Answers are text in React nodes, never HTML, except markdown, which is sanitised (spec §2.12). */
function PlainText({ children }: { children: ReactNode }) {
  return <PlainTextSm style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{children}</PlainTextSm>;
}

function NoAnswer() {
  const { t } = useTranslation();
  return <PlainTextSm style={{ color: 'var(--mantine-color-dimmed)', fontStyle: 'italic' }}>{t('proposals.noAnswer')}</PlainTextSm>;
}

/** An outside address opened in a new tab, with no access to this window. */
function ExternalLink({ href }: { href: string }) {
  return (
    <Anchor href={href.trim()} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
      {href.trim()}
    </Anchor>
  );
}

function YesNo({ answer }: { answer: unknown }) {
  const { t } = useTranslation();
  const value = answerBoolean(answer);
  if (value === undefined) return <GenericAnswer answer={answer} />;
  return <PlainText>{value ? t('proposals.yes') : t('proposals.no')}</PlainText>;
}

function Agreement({ answer }: { answer: unknown }) {
  const { t } = useTranslation();
  const confirmed = answerBoolean(answer) === true;
  return (
    <Group gap={6} wrap="nowrap">
      {confirmed ? (
        <IconCircleCheck size={18} color="var(--mantine-color-green-7)" aria-hidden />
      ) : (
        <IconCircleX size={18} color="var(--mantine-color-red-7)" aria-hidden />
      )}
      <Text size="sm">{confirmed ? t('proposals.confirmed') : t('proposals.notConfirmed')}</Text>
    </Group>
  );
}

function UrlList({ answer }: { answer: unknown }) {
  const items = answerParts(Array.isArray(answer) ? answer : [answer]);
  if (items.length === 0) return <NoAnswer />;
  // Links a finger can tell apart: 24 px between their centres at least (WCAG 2.5.8, Lighthouse's target-size).
  return (
    <List size="sm" spacing="xs">
      {items.map((item, index) => (
        <List.Item key={`${index}-${item}`}>
          {isWebUrl(item, true) ? (
            <ExternalLink href={item} />
          ) : (
            <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
              {item}
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}

function Tags({ field }: { field: ProposalExtraField }) {
  const items = tagItems(field);
  if (items.length === 0) return <NoAnswer />;
  return (
    <Group gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item, index) => (
        <Badge key={`${index}-${item}`} component="li" variant="light" tt="none">
          {item}
        </Badge>
      ))}
    </Group>
  );
}

function GenericAnswer({ answer }: { answer: unknown }) {
  const { t } = useTranslation();
  if (typeof answer === 'boolean') return <PlainText>{answer ? t('proposals.yes') : t('proposals.no')}</PlainText>;
  const text = answerParts(answer).join(', ');
  return text ? <PlainText>{text}</PlainText> : <NoAnswer />;
}

/** One field's answer, by the field's type (spec §2.12); types it does not know read as plain text. */
export function FieldAnswer({ field }: { field: ProposalExtraField }) {
  const { answer } = field;
  switch (field.ref) {
    case FieldType.markdown:
      return typeof answer === 'string' && answer.trim() ? <Markdown text={answer} /> : <GenericAnswer answer={answer} />;
    case FieldType.singleLine:
    case FieldType.multiLine:
      return typeof answer === 'string' && answer.trim() ? <PlainText>{answer}</PlainText> : <GenericAnswer answer={answer} />;
    case FieldType.yesNo:
      return <YesNo answer={answer} />;
    case FieldType.agreement:
      return <Agreement answer={answer} />;
    case FieldType.urlList:
      return <UrlList answer={answer} />;
    case FieldType.tagInput:
      return <Tags field={field} />;
    case FieldType.groupedTag: {
      const text = groupedTagText(answer);
      return text ? <PlainText>{text}</PlainText> : <NoAnswer />;
    }
    case 'singleLineHttpsURLEntry':
      return isWebUrl(answer, true) ? <ExternalLink href={answer} /> : <GenericAnswer answer={answer} />;
    case 'tokenValueCardanoADA':
      return typeof answer === 'number' ? <PlainText>{formatFunds(answer, 'ADA')}</PlainText> : <GenericAnswer answer={answer} />;
    case 'currency':
      return typeof answer === 'number' ? <PlainText>{formatWholeNumber(answer)}</PlainText> : <GenericAnswer answer={answer} />;
    default:
      return <GenericAnswer answer={answer} />;
  }
}
