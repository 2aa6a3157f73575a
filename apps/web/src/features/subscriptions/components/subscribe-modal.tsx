import { levelLabel, SubscriptionStatus } from '@cr/contract/plain';
import { Alert, Anchor, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { NewSubscription } from '@cr/contract/subscriptions';
import type { Category, EventPublic } from '@cr/contract/events';
import type { SubscriptionPublic } from '@cr/contract/users';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { env } from '../../../config/env';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { loadUserInfo } from '../../../lib/session';
import { useSubscribe } from '../api/subscriptions';
import { lazyZodResolver } from '../../../lib/lazy-resolver';
import { Lv2Form } from './lv2-form';

type FormValues = { want_to_be_reviewer: boolean; fund_rules_acceptance: boolean; preferred_categories: string[] };

function Confirmation({ subscription, onClose }: { subscription: SubscriptionPublic; onClose: () => void }) {
  const { t } = useTranslation();
  const link = subscription.extra.sumsub_link;
  return (
    <Stack>
      {link ? (
        <Alert color="yellow" title={t('subscribe.verifyTitle')}>
          <Text size="sm">{t('subscribe.verifyText')}</Text>
          <Anchor href={link} target="_blank" rel="noopener noreferrer">
            {t('subscribe.verifyLink')}
          </Anchor>
        </Alert>
      ) : subscription.status === SubscriptionStatus.invited ? (
        <Alert color="brand" title={t('subscribe.invitedTitle')}>
          {t('subscribe.invitedText')}
        </Alert>
      ) : (
        <Alert color="green" title={t('subscribe.verifiedTitle')} data-testid="subscription-confirmation">
          <Text size="sm">{t('subscribe.verifiedText', { level: levelLabel(subscription.role) })}</Text>
          <Text size="sm">
            {t('subscribe.anonymousId')}: <strong data-testid="anonymous-id">{subscription.extra.anonymous_id}</strong>
          </Text>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>{t('subscribe.continue')}</Button>
      </Group>
    </Stack>
  );
}

/** How the modal reads an event's categories (the events feature owns that query; app/ composes the two). */
export type CategoriesQuery = (eventId: number) => UseQueryOptions<Category[], Error, Category[], readonly ['categories', number]>;

function SubscribeForm({
  event,
  categoriesQuery,
  onDone,
  onSkip,
}: {
  event: EventPublic;
  categoriesQuery: CategoriesQuery;
  onDone: (subscriptions: SubscriptionPublic[]) => void;
  onSkip: () => void;
}) {
  const { t } = useTranslation();
  const mutation = useSubscribe();
  const categories = useQuery(categoriesQuery(event.row_id));
  const form = useForm<FormValues>({
    resolver: lazyZodResolver<FormValues>(() => import('../schemas').then((module) => module.subscribeFormSchema)),
    mode: 'onChange',
    defaultValues: { want_to_be_reviewer: false, fund_rules_acceptance: false, preferred_categories: [] },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const input: NewSubscription = {
      want_to_be_reviewer: values.want_to_be_reviewer as true,
      fund_rules_acceptance: values.fund_rules_acceptance as true,
      preferred_categories: values.preferred_categories.map(Number),
      event_id: event.row_id,
    };
    try {
      const result = await mutation.mutateAsync(input);
      notifySuccess('notify.subscribed');
      await loadUserInfo();
      onDone(result);
    } catch (error) {
      notifyError(error, 'notify.subscribeFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">{event.description}</Text>
        <Controller
          control={form.control}
          name="want_to_be_reviewer"
          render={({ field }) => (
            <Checkbox
              label={t('subscribe.wantToBeReviewer')}
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              error={fieldError(form, 'want_to_be_reviewer', t('subscribe.wantToBeReviewer'))}
            />
          )}
        />
        <Controller
          control={form.control}
          name="fund_rules_acceptance"
          render={({ field }) => (
            <Checkbox
              // The spec's words, in sentence case, with the rules they accept a click away (issue 12 item 14).
              label={
                <Trans
                  i18nKey="subscribe.fundRulesLabel"
                  components={{ rules: <Anchor href={env.fundRulesUrl} target="_blank" rel="noopener noreferrer" inherit /> }}
                />
              }
              checked={field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              error={fieldError(form, 'fund_rules_acceptance', t('subscribe.fundRules'))}
            />
          )}
        />
        <Controller
          control={form.control}
          name="preferred_categories"
          render={({ field }) => (
            <AppMultiSelect
              label={t('subscribe.categories')}
              description={t('subscribe.categoriesHint')}
              data={(categories.data ?? []).map((category) => ({ value: String(category.id), label: category.title }))}
              value={field.value}
              onChange={field.onChange}
              searchable
              clearable
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onSkip}>
            {t('subscribe.skip')}
          </Button>
          <Button type="submit" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending}>
            {t('subscribe.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The Subscribe modal (spec §2.4): one event after the other of those the user may subscribe to, then the
 * confirmation with the verification link or the anonymous id and level. Opened on an existing invitation (the
 * profile's Subscribe button), it starts at the LV2 form.
 */
export function SubscribeModal({
  events,
  categoriesQuery,
  opened,
  onClose,
  invitation,
}: {
  events: EventPublic[];
  categoriesQuery: CategoriesQuery;
  opened: boolean;
  onClose: () => void;
  invitation?: SubscriptionPublic;
}) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [result, setResult] = useState<SubscriptionPublic | undefined>(invitation);
  const invited = result?.status === SubscriptionStatus.invited && result.role === 2;
  const event = events[Math.min(index, events.length - 1)];
  const close = () => {
    setResult(undefined);
    setIndex(0);
    onClose();
  };
  const next = () => {
    setResult(undefined);
    if (index + 1 < events.length) setIndex(index + 1);
    else close();
  };
  if (!event) return null;
  return (
    // While the LV2 form is shown the modal cannot be cancelled (spec §2.4): no close button, no Escape, no outside click.
    <Modal
      opened={opened}
      onClose={invited ? () => undefined : close}
      withCloseButton={!invited}
      closeOnEscape={!invited}
      closeOnClickOutside={!invited}
      title={invited ? t('lv2.title', { name: event.name }) : t('subscribe.title', { name: event.name })}
      size="lg"
    >
      {invited ? (
        <Lv2Form
          eventId={event.row_id}
          onDone={(subscriptions) =>
            setResult(
              subscriptions.find((item) => item.status !== SubscriptionStatus.refused && item.status !== SubscriptionStatus.invited) ??
                subscriptions[0],
            )
          }
        />
      ) : result ? (
        <Confirmation subscription={result} onClose={next} />
      ) : (
        <SubscribeForm
          key={event.row_id}
          event={event}
          categoriesQuery={categoriesQuery}
          onSkip={next}
          onDone={(subscriptions) => setResult(subscriptions.find((item) => item.event_id === event.row_id) ?? subscriptions[0])}
        />
      )}
    </Modal>
  );
}
