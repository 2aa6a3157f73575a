import { FieldType } from '@cr/contract/plain';
import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { ProposalExtraField } from '@cr/contract/proposals';
import { memo, useId, type ReactNode } from 'react';
import { InTurn } from '../../../components/in-turn';
import { displayTitle } from '../values';
import { FieldAnswer } from './field-answer';

/** A node that holds other fields (a list, one of its items, a group or border group), not an answer of its own. */
const isGroup = (field: ProposalExtraField): field is ProposalExtraField & { sub_fields: ProposalExtraField[] } =>
  field.ref !== FieldType.tagInput && Array.isArray(field.sub_fields) && field.sub_fields.length > 0;

function Field({ field }: { field: ProposalExtraField }) {
  const id = useId();
  return (
    <Stack gap={4} className="proposal-field" data-ref={field.ref ?? undefined}>
      <Text size="sm" fw={600} id={id}>
        {displayTitle(field.title)}
      </Text>
      <Box aria-labelledby={id} role="group">
        <FieldAnswer field={field} />
      </Box>
    </Stack>
  );
}

/** A group of fields inside a section (a milestone, a border group), drawn inside a frame; groups nest. */
function FieldGroup({ field }: { field: ProposalExtraField & { sub_fields: ProposalExtraField[] } }) {
  const id = useId();
  const title = displayTitle(field.title);
  return (
    <Paper
      withBorder
      radius="sm"
      p="sm"
      role="group"
      aria-labelledby={title ? id : undefined}
      className="proposal-group"
      data-ref={field.ref ?? undefined}
    >
      {title && (
        <Text size="sm" fw={700} mb="xs" id={id}>
          {title}
        </Text>
      )}
      <FieldList fields={field.sub_fields} />
    </Paper>
  );
}

function FieldList({ fields }: { fields: ProposalExtraField[] }) {
  return (
    <Stack gap="md">
      {fields.map((field, index) => (isGroup(field) ? <FieldGroup key={index} field={field} /> : <Field key={index} field={field} />))}
    </Stack>
  );
}

function Section({ section }: { section: ProposalExtraField }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="sm">
        {displayTitle(section.title)}
      </Title>
      <FieldList fields={section.sub_fields ?? []} />
    </Box>
  );
}

function Segment({ segment }: { segment: ProposalExtraField }) {
  const id = useId();
  const children = segment.sub_fields ?? [];
  return (
    <Paper component="section" aria-labelledby={id} withBorder radius="md" p="lg" className="proposal-segment">
      <Title order={2} size="h3" id={id} mb="md">
        {displayTitle(segment.title)}
      </Title>
      <Stack gap="lg">
        {children.map((child, index) => (
          <Later key={index} now={index === 0}>
            {isGroup(child) ? <Section section={child} /> : <Field field={child} />}
          </Later>
        ))}
      </Stack>
    </Paper>
  );
}

/** The first part now, the others each in a turn of their own (components/in-turn.tsx): a proposal is long. */
function Later({ now, children }: { now: boolean; children: ReactNode }) {
  return now ? children : <InTurn>{children}</InTurn>;
}

/**
 * The extra information of a proposal (spec §2.12, D-023): segments (h2) holding sections (h3) holding fields. The
 * first segment and each segment's first section render with the page, the rest in turns (issue 30 item 5: the page's
 * render was one task of ~120 ms on a desktop); what is added only ever goes below what is shown.
 */
function ExtraInformationView({ fields }: { fields: ProposalExtraField[] }) {
  return (
    <Stack gap="lg">
      {fields.map((segment, index) => (
        <Later key={index} now={index === 0}>
          {isGroup(segment) ? (
            <Segment segment={segment} />
          ) : (
            <Paper withBorder radius="md" p="lg">
              <Field field={segment} />
            </Paper>
          )}
        </Later>
      ))}
    </Stack>
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ExtraInformation = memo(ExtraInformationView);
