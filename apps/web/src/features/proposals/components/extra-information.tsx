import { FieldType } from '@cr/contract/plain';
import { Stack, Title } from '@mantine/core';
import type { ProposalExtraField } from '@cr/contract/proposals';
import { memo, useDeferredValue, useId } from 'react';
import { PlainPaper, PlainStack, PlainTextSm } from '../../../components/plain';
import { displayTitle } from '../values';
import { FieldAnswer } from './field-answer';

/** A node that holds other fields (a list, one of its items, a group or border group), not an answer of its own. */
const isGroup = (field: ProposalExtraField): field is ProposalExtraField & { sub_fields: ProposalExtraField[] } =>
  field.ref !== FieldType.tagInput && Array.isArray(field.sub_fields) && field.sub_fields.length > 0;

/*
 * A proposal has a hundred fields or more: they are plain elements (components/plain.tsx), styled by the app's
 * CSS module, which cost a fraction of Mantine's components to mount.
 */
function Field({ field }: { field: ProposalExtraField }) {
  const id = useId();
  return (
    <PlainStack gap={4} className="proposal-field" data-ref={field.ref ?? undefined}>
      <PlainTextSm id={id} style={{ fontWeight: 600 }}>
        {displayTitle(field.title)}
      </PlainTextSm>
      <div aria-labelledby={id} role="group">
        <FieldAnswer field={field} />
      </div>
    </PlainStack>
  );
}

/** A group of fields inside a section (a milestone, a border group), drawn inside a frame; groups nest. */
function FieldGroup({ field }: { field: ProposalExtraField & { sub_fields: ProposalExtraField[] } }) {
  const id = useId();
  const title = displayTitle(field.title);
  return (
    <PlainPaper
      radius="sm"
      padding="sm"
      role="group"
      aria-labelledby={title ? id : undefined}
      className="proposal-group"
      data-ref={field.ref ?? undefined}
    >
      {title && (
        <PlainTextSm id={id} style={{ marginBottom: 'var(--mantine-spacing-xs)', fontWeight: 700 }}>
          {title}
        </PlainTextSm>
      )}
      <FieldList fields={field.sub_fields} />
    </PlainPaper>
  );
}

function FieldList({ fields }: { fields: ProposalExtraField[] }) {
  return (
    <PlainStack gap="md">
      {fields.map((field, index) => (isGroup(field) ? <FieldGroup key={index} field={field} /> : <Field key={index} field={field} />))}
    </PlainStack>
  );
}

function Section({ section }: { section: ProposalExtraField }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="sm">
        {displayTitle(section.title)}
      </Title>
      <FieldList fields={section.sub_fields ?? []} />
    </section>
  );
}

function Segment({ segment }: { segment: ProposalExtraField }) {
  const id = useId();
  const children = segment.sub_fields ?? [];
  return (
    <PlainPaper component="section" aria-labelledby={id} radius="md" padding="lg" className="proposal-segment">
      <Title order={2} size="h3" id={id} mb="md">
        {displayTitle(segment.title)}
      </Title>
      <PlainStack gap="lg">
        {children.map((child, index) => (isGroup(child) ? <Section key={index} section={child} /> : <Field key={index} field={child} />))}
      </PlainStack>
    </PlainPaper>
  );
}

/**
 * The extra information of a proposal (spec §2.12, D-023): segments (h2) holding sections (h3) holding fields. The
 * first segment renders with the page, the rest in React's background pass (`useDeferredValue`), which answers input
 * between them (the page's render was one task of ~120 ms on a desktop); what is added only goes below what is shown.
 */
function ExtraInformationView({ fields }: { fields: ProposalExtraField[] }) {
  const all = useDeferredValue(true, false);
  return (
    <Stack gap="lg">
      {(all ? fields : fields.slice(0, 1)).map((segment, index) =>
        isGroup(segment) ? (
          <Segment key={index} segment={segment} />
        ) : (
          <PlainPaper key={index} radius="md" padding="lg">
            <Field field={segment} />
          </PlainPaper>
        ),
      )}
    </Stack>
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ExtraInformation = memo(ExtraInformationView);
