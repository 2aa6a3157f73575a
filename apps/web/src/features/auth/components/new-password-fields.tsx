import { PasswordInput } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';

/**
 * The new password and its confirmation (spec §2.10), shared by the reset form (with a token) and the signed-in
 * change form; the confirmation re-validates when the password changes. The form's schema holds the rules.
 */
export function NewPasswordFields<T extends FieldValues & { password: string; password_confirmation: string }>({
  form,
}: {
  form: UseFormReturn<T>;
}) {
  const { t } = useTranslation();
  const password = 'password' as Path<T>;
  const confirmation = 'password_confirmation' as Path<T>;
  return (
    <>
      <PasswordInput
        label={t('fields.new_password')}
        autoComplete="new-password"
        withAsterisk
        {...form.register(password)}
        error={fieldError(form, password, t('fields.new_password'))}
      />
      <PasswordInput
        label={t('fields.password_confirmation')}
        autoComplete="new-password"
        withAsterisk
        {...form.register(confirmation, { deps: [password] })}
        error={fieldError(form, confirmation, t('fields.password_confirmation'))}
      />
    </>
  );
}
