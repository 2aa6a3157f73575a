import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@cr/contract/languages';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, PSEUDO_LANGUAGE } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useSaveLanguage } from '../api/language';

const options = LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }));

/**
 * The language menu (issue 31): each language named in its own words. The interface changes at once, the choice is
 * kept in this browser, and a signed-in person's account keeps it too, for their mails. `label` shows a visible
 * label (the profile); the navigation's menu is named for screen readers only.
 */
export function LanguageSelect({ label = false, testId }: { label?: boolean; testId?: string }) {
  const { t, i18n } = useTranslation();
  const logged = useSession((state) => state.logged);
  const save = useSaveLanguage();
  const change = async (language: Language) => {
    await chooseLanguage(language);
    if (logged) save.mutate(language, { onError: (error) => notifyError(error, 'notify.languageSaveFailed') });
  };
  return (
    <NativeSelect
      data-testid={testId}
      size={label ? 'sm' : 'xs'}
      label={label ? t('nav.language') : undefined}
      aria-label={label ? undefined : t('nav.language')}
      leftSection={<IconLanguage size={16} aria-hidden />}
      data={options}
      value={i18n.language === PSEUDO_LANGUAGE ? 'en-US' : i18n.language}
      onChange={(event) => void change(event.currentTarget.value as Language)}
      w={label ? 220 : 'auto'}
    />
  );
}
