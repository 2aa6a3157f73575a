// The date pickers' styles load with them, not with every page (issue 16: render-blocking CSS).
import '@mantine/dates/styles.css';
import { DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type FieldValues, type Path, type RegisterOptions } from 'react-hook-form';

/** The one date-time format of the app's inputs, as its tables show dates (ISO order, 24-hour clock). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** A form value `YYYY-MM-DDTHH:mm` (local time, as the forms keep it) as the picker's `YYYY-MM-DD HH:mm:ss`. */
export function toPickerValue(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) ? `${value.slice(0, 10)} ${value.slice(11, 16)}:00` : null;
}

/** The picker's `YYYY-MM-DD HH:mm:ss` (or null when cleared) as the form's `YYYY-MM-DDTHH:mm` ('' when empty). */
export function fromPickerValue(value: string | null): string {
  return value ? `${value.slice(0, 10)}T${value.slice(11, 16)}` : '';
}

/**
 * A date-time picker bound to a form field holding a local `YYYY-MM-DDTHH:mm` string, shown and typed in one format
 * everywhere ({@link DATE_TIME_FORMAT}) whatever the browser's locale (a native datetime-local input follows it).
 */
export function FormDateTime<T extends FieldValues>({
  control,
  name,
  rules,
  ...props
}: {
  control: Control<T>;
  name: Path<T>;
  rules?: Pick<RegisterOptions<T, Path<T>>, 'deps'>;
} & Omit<DateTimePickerProps, 'value' | 'onChange' | 'name'>) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      {...(rules ? { rules } : {})}
      render={({ field }) => (
        <DateTimePicker
          valueFormat={DATE_TIME_FORMAT}
          placeholder={DATE_TIME_FORMAT}
          // The placeholder is text on the page (not an attribute): in the dimmed colour, which has the contrast.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          clearable
          clearButtonProps={{ 'aria-label': t('common.clear') }}
          {...props}
          name={field.name}
          ref={field.ref}
          value={toPickerValue(field.value)}
          onChange={(value) => field.onChange(fromPickerValue(value))}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
