import { TextInput, type TextInputProps } from '@mantine/core';
import { Controller, type Control, type FieldValues, type Path, type RegisterOptions } from 'react-hook-form';
import { DATE_TIME_FORMAT, fromDateTimeText, toDateTimeText } from '../lib/date-time-text';
import { DateTimePickerPopover } from './date-time-picker-popover';

/**
 * A date-time field bound to a form field holding a local `YYYY-MM-DDTHH:mm` string: typed or pasted as
 * {@link DATE_TIME_FORMAT} whatever the browser's locale (a native datetime-local input follows it), or picked in the
 * calendar behind its button (issue 26 item 13). A text that is no date-time stays as typed and the form's schema
 * says 'The selected date is invalid.'
 */
export function FormDateTime<T extends FieldValues>({
  control,
  name,
  rules,
  label,
  ...props
}: {
  control: Control<T>;
  name: Path<T>;
  rules?: Pick<RegisterOptions<T, Path<T>>, 'deps'>;
  label: string;
} & Omit<TextInputProps, 'value' | 'onChange' | 'name' | 'label'>) {
  return (
    <Controller
      control={control}
      name={name}
      {...(rules ? { rules } : {})}
      render={({ field }) => (
        <TextInput
          label={label}
          placeholder={DATE_TIME_FORMAT}
          autoComplete="off"
          // Mantine's placeholder grey falls below 4.5:1 on white.
          styles={{ input: { '--input-placeholder-color': 'var(--mantine-color-dimmed)' } }}
          rightSection={
            <DateTimePickerPopover
              value={typeof field.value === 'string' ? field.value : ''}
              onChange={(value) => field.onChange(value)}
              fieldLabel={label}
              disabled={props.disabled}
            />
          }
          {...props}
          name={field.name}
          ref={field.ref}
          value={toDateTimeText(field.value)}
          onChange={(event) => field.onChange(fromDateTimeText(event.currentTarget.value))}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
