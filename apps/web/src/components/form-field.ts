import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { translateError } from '../lib/i18n';

/**
 * The translated error of a field, shown only once the field was edited or the form submitted (spec §2.17: forms
 * show validation messages only after the field was edited).
 */
export function fieldError<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>, label: string): string | undefined {
  const { errors, dirtyFields, touchedFields, isSubmitted } = form.formState;
  const key = name as string;
  const edited = isSubmitted || Boolean((dirtyFields as Record<string, unknown>)[key]) || Boolean((touchedFields as Record<string, unknown>)[key]);
  if (!edited) return undefined;
  const error = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], errors) as { message?: string } | undefined;
  return translateError(error?.message, label);
}
