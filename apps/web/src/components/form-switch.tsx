import { Switch, type SwitchProps } from '@mantine/core';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/** A Mantine switch bound to a boolean form field (controlled, so default and reset values show). */
export function FormSwitch<T extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<T>; name: Path<T> } & Omit<SwitchProps, 'checked' | 'onChange' | 'name'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          {...props}
          name={field.name}
          ref={field.ref}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
