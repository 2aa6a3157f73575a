import { TOKEN_EXPIRY_DAYS_DEFAULT, TOKEN_SCOPES } from '@cr/contract/plain';
import { Alert, Badge, Button, Checkbox, Code, Group, Loader, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ApiTokenPublic, CreatedApiToken, NewApiToken, TokenScope } from '@cr/contract/tokens';
import type { newApiToken } from '@cr/contract/tokens';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { CopyButton } from '../../../components/copy-button';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { fieldError } from '../../../components/form-field';
import { CELL_CLASS, PlainTable, ROW_CLASS } from '../../../components/plain';
import { ScrollTable } from '../../../components/scroll-table';
import { formatDateShort } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isAdmin, useSession } from '../../../lib/session';
import { apiTokensQuery, useCreateApiToken, useRevokeApiToken } from '../api/tokens';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

const EXPIRY_CHOICES = [7, 30, 90, 180, 365];
type FormValues = z.input<typeof newApiToken>;
const NEW_TOKEN_START: FormValues = { name: '', scopes: ['read'], expires_in_days: TOKEN_EXPIRY_DAYS_DEFAULT };
// One resolver for the module, so that the schema, once fetched, outlives a render (lib/lazy-resolver).
const newTokenResolver = lazyZodResolver<FormValues, unknown, NewApiToken>(
  () => import('@cr/contract/tokens').then((module) => module.newApiToken),
  { invalidStart: NEW_TOKEN_START },
);

/** The form that makes a token: a name, its scopes (admin-read for admins only) and its lifetime. */
function NewTokenForm({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const { t } = useTranslation();
  const admin = useSession(isAdmin);
  const create = useCreateApiToken();
  const form = useForm<FormValues, unknown, NewApiToken>({
    resolver: newTokenResolver,
    mode: 'onChange',
    defaultValues: NEW_TOKEN_START,
  });
  const scopes = TOKEN_SCOPES.filter((scope) => admin || scope !== 'admin-read');
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onCreated(await create.mutateAsync(values));
      form.reset();
      notifySuccess('notify.tokenCreated');
    } catch (error) {
      notifyError(error, 'notify.tokenCreateFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('tokens.formLabel')}>
      <Stack gap="sm" maw={560}>
        <TextInput
          label={t('tokens.name')}
          description={t('tokens.nameHint')}
          withAsterisk
          maxLength={100}
          {...form.register('name')}
          error={fieldError(form, 'name', t('tokens.name'))}
        />
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <Checkbox.Group
              label={t('tokens.scopes')}
              withAsterisk
              value={field.value as string[]}
              onChange={(value) => field.onChange(value)}
              error={fieldError(form, 'scopes', t('tokens.scopes'))}
            >
              <Stack gap={6} mt={6}>
                {scopes.map((scope) => (
                  <Checkbox
                    key={scope}
                    value={scope}
                    label={t(`tokens.scopeNames.${scope}`)}
                    description={t(`tokens.scopeHints.${scope}`)}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
        />
        <Controller
          control={form.control}
          name="expires_in_days"
          render={({ field }) => (
            // A native select: Mantine's brings its dropdown machinery into the profile's first load (issue 30 item 5).
            <NativeSelect
              label={t('tokens.expiry')}
              data={EXPIRY_CHOICES.map((days) => ({ value: String(days), label: t('tokens.days', { count: days }) }))}
              value={String(field.value)}
              onChange={(event) => field.onChange(Number(event.currentTarget.value))}
              w={220}
            />
          )}
        />
        <Button type="submit" w="fit-content" loading={create.isPending} disabled={!form.formState.isValid}>
          {t('tokens.create')}
        </Button>
      </Stack>
    </form>
  );
}

function TokenState({ token }: { token: ApiTokenPublic }) {
  const { t } = useTranslation();
  if (token.revoked_at) return <Badge color="gray">{t('tokens.states.revoked')}</Badge>;
  if (new Date(token.expires_at).getTime() <= Date.now()) return <Badge color="yellow">{t('tokens.states.expired')}</Badge>;
  return <Badge color="teal">{t('tokens.states.active')}</Badge>;
}

/**
 * The profile's API tokens (issue 29 item 3): the tokens made for scripts, their scopes, expiry and last use; a new
 * token's secret is shown once, to copy, with how to use it; a token can be revoked.
 */
export function ApiTokensSection() {
  const { t } = useTranslation();
  const { data, isError, isPending } = useQuery(apiTokensQuery);
  const revoke = useRevokeApiToken();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const onRevoke = async (token: ApiTokenPublic) => {
    try {
      await revoke.mutateAsync(token.id);
      notifySuccess('notify.tokenRevoked');
    } catch (error) {
      notifyError(error, 'notify.tokenRevokeFailed');
    }
  };
  const scopeNames = (scopes: TokenScope[]) => scopes.map((scope) => t(`tokens.scopeNames.${scope}`)).join(', ');
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('tokens.hint')}
      </Text>
      {created && (
        <Alert color="teal" title={t('tokens.createdTitle', { name: created.name })} role="status">
          <Stack gap="xs">
            <Text size="sm">{t('tokens.createdHint')}</Text>
            <Group gap="xs" wrap="nowrap">
              <Code data-testid="new-token" style={{ overflowWrap: 'anywhere' }}>
                {created.token}
              </Code>
              <CopyButton value={created.token} label={t('tokens.copy')} />
            </Group>
            <Text size="sm">{t('tokens.usage')}</Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {`curl -H "Authorization: Bearer ${created.token}" ${window.location.origin}/api/reviews/users/me/`}
            </Code>
            <Button variant="default" size="xs" w="fit-content" onClick={() => setCreated(null)}>
              {t('tokens.hideSecret')}
            </Button>
          </Stack>
        </Alert>
      )}
      {isError && <Alert color="red">{t('tokens.fetchFailed')}</Alert>}
      {isPending && <Loader size="sm" role="status" aria-label={t('common.loading')} />}
      {data && (
        <ScrollTable minWidth={720} label={t('tokens.tableLabel')}>
          <PlainTable aria-label={t('tokens.tableLabel')}>
            <thead>
              <tr>
                {['name', 'scopes', 'expires', 'lastUsed', 'state', 'actions'].map((column) => (
                  <th key={column}>{t(`tokens.columns.${column}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((token) => (
                <tr key={token.id} className={ROW_CLASS}>
                  <td className={CELL_CLASS}>
                    <Text size="sm" fw={500}>
                      {token.name}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {token.hint}…
                    </Text>
                  </td>
                  <td className={CELL_CLASS}>{scopeNames(token.scopes)}</td>
                  <td className={CELL_CLASS}>{formatDateShort(token.expires_at)}</td>
                  <td className={CELL_CLASS}>{token.last_used_at ? formatDateShort(token.last_used_at) : t('tokens.neverUsed')}</td>
                  <td className={CELL_CLASS}>
                    <TokenState token={token} />
                  </td>
                  <td className={CELL_CLASS}>
                    {!token.revoked_at && (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => void onRevoke(token)}
                        loading={revoke.isPending && revoke.variables === token.id}
                        aria-label={t('tokens.revokeNamed', { name: token.name })}
                      >
                        {t('tokens.revoke')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
              {data.length === 0 && <EmptyTableRow colSpan={6} />}
            </tbody>
          </PlainTable>
        </ScrollTable>
      )}
      <NewTokenForm onCreated={setCreated} />
    </Stack>
  );
}
