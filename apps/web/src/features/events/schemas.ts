import { z } from 'zod';
import { messages, requiredText } from '@cr/contract/rules';
import { isLocalDateTime } from '../../lib/date-time-text';

/**
 * A `datetime-local` value ('' for none) ⇄ an ISO instant. The inputs show the browser's local time; the API stores
 * instants.
 */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A date-time field's value: empty, or a real local date-time; text typed that is neither is refused. */
export const localDateTime = z.string().refine((value) => value === '' || isLocalDateTime(value), messages.date);

const after = (start: string, end: string) => !start || !end || new Date(end).getTime() > new Date(start).getTime();

/** The event form (spec §5): name and description required, active off by default, end after start. */
export const eventFormSchema = z
  .object({
    name: requiredText.max(200, messages.maxLength),
    description: requiredText.max(5000, messages.maxLength),
    active: z.boolean(),
    start_time: localDateTime,
    end_time: localDateTime,
  })
  .refine((value) => after(value.start_time, value.end_time), { message: messages.endAfterStart, path: ['end_time'] });
export type EventFormValues = z.infer<typeof eventFormSchema>;

/** The status-message form (spec §5): message required and not blank, action URL a URL when given. */
export const statusFormSchema = z.object({
  messages: z.array(
    z.object({
      row_id: z.number().int().optional(),
      message: requiredText.max(5000, messages.maxLength),
      severity: z.enum(['info', 'warning', 'critical', 'success']),
      is_active: z.boolean(),
      action_text: z.string().max(100, messages.maxLength),
      action_url: z
        .string()
        .trim()
        .refine((value) => value === '' || (/^https?:\/\//i.test(value) && URL.canParse(value)), messages.url),
    }),
  ),
});
export type StatusFormValues = z.infer<typeof statusFormSchema>;
