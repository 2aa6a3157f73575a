import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { translateError } from '../lib/i18n';

/**
 * The translated error of a field, shown only once the field was edited (changed or left) or the form submitted
 * (spec §2.17: forms show validation messages only after the field was edited). Works for nested paths
 * ('lv1.min_valid_reviews', 'messages.0.action_url').
 */
export function fieldError<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>, label: string): string | undefined {
  const state = form.getFieldState(name, form.formState);
  const edited = form.formState.isSubmitted || state.isDirty || state.isTouched;
  if (!edited) return undefined;
  return translateError(state.error?.message, label);
}
