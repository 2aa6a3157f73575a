import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { endForcedReset, loadUserInfo, takeAccessToken } from '../../../lib/session';
import { useUpdatePassword } from '../api/accounts';
import type { ChangePasswordFormValues } from '../schemas';
import { NewPasswordFields } from './new-password-fields';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

const START: ChangePasswordFormValues = { old_password: '', password: '', password_confirmation: '' };
// One resolver for the module, so that the schema, once fetched, outlives a render (lib/lazy-resolver).
const resolver = lazyZodResolver<ChangePasswordFormValues>(() => import('../schemas').then((module) => module.changePasswordFormSchema), {
  invalidStart: START,
});

/** The signed-in password change (spec §2.10 without a token): old password, new password, confirmation. */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const mutation = useUpdatePassword();
  const form = useForm<ChangePasswordFormValues>({
    resolver,
    mode: 'onChange',
    defaultValues: START,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      takeAccessToken(await mutation.mutateAsync(values));
      endForcedReset();
      notifySuccess('notify.passwordUpdated');
      form.reset();
      await loadUserInfo();
      onDone?.();
    } catch (error) {
      notifyError(error, 'notify.resetFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={420}>
        <PasswordInput
          label={t('fields.old_password')}
          autoComplete="current-password"
          withAsterisk
          {...form.register('old_password')}
          error={fieldError(form, 'old_password', t('fields.old_password'))}
        />
        <NewPasswordFields form={form} />
        <Button type="submit" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending} w="fit-content">
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}
