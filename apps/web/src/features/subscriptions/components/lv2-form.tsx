import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import type { SubscriptionPublic } from '@cr/contract/users';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { loadUserInfo } from '../../../lib/session';
import { useAnswerInvitation } from '../api/subscriptions';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

type Values = {
  want_to_be_lv2: boolean;
  public_contact: string;
  telegram_handle_private: string;
  reward_address: string;
  acknowledge_public_contact: boolean;
};

/** The second (LV2) form of spec §2.4/§5: answers the level-2 invitation, yes with the details or no. */
export function Lv2Form({ eventId, onDone }: { eventId: number; onDone: (subscriptions: SubscriptionPublic[]) => void }) {
  const { t } = useTranslation();
  const mutation = useAnswerInvitation();
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('@cr/contract/subscriptions').then((module) => module.lv2Form)) as unknown as Resolver<Values>,
    mode: 'onChange',
    defaultValues: {
      want_to_be_lv2: false,
      public_contact: '',
      telegram_handle_private: '',
      reward_address: '',
      acknowledge_public_contact: false,
    },
  });
  const send = async (status: 0 | 1, values?: Values) => {
    try {
      const result = await mutation.mutateAsync({
        event_id: eventId,
        status,
        ...(values
          ? {
              public_contact: values.public_contact,
              telegram_handle_private: values.telegram_handle_private,
              reward_address: values.reward_address,
              acknowledge_public_contact: values.acknowledge_public_contact,
            }
          : {}),
      });
      notifySuccess('notify.invitationAnswered');
      await loadUserInfo();
      onDone(result);
    } catch (error) {
      notifyError(error, 'notify.invitationFailed');
    }
  };
  const label = (name: keyof Values) => t(`lv2.${name}`);
  const checkbox = (name: 'want_to_be_lv2' | 'acknowledge_public_contact') => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Checkbox
          label={label(name)}
          checked={field.value}
          onChange={(e) => field.onChange(e.currentTarget.checked)}
          error={fieldError(form, name, label(name))}
        />
      )}
    />
  );
  return (
    <form onSubmit={form.handleSubmit((values) => send(1, values))} noValidate>
      <Stack>
        <Text size="sm">{t('lv2.intro')}</Text>
        {checkbox('want_to_be_lv2')}
        <TextInput
          label={label('public_contact')}
          withAsterisk
          {...form.register('public_contact')}
          error={fieldError(form, 'public_contact', label('public_contact'))}
        />
        <TextInput
          label={label('telegram_handle_private')}
          withAsterisk
          {...form.register('telegram_handle_private')}
          error={fieldError(form, 'telegram_handle_private', label('telegram_handle_private'))}
        />
        <TextInput
          label={label('reward_address')}
          description={t('lv2.rewardHint')}
          withAsterisk
          placeholder={t('lv2.rewardExample')}
          {...form.register('reward_address')}
          error={fieldError(form, 'reward_address', label('reward_address'))}
        />
        {checkbox('acknowledge_public_contact')}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => send(0)} disabled={mutation.isPending}>
            {t('lv2.decline')}
          </Button>
          <Button type="submit" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending}>
            {t('lv2.accept')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
