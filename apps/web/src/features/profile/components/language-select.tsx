import { IconLanguage } from '@tabler/icons-react';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@cr/contract/languages';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, PSEUDO_LANGUAGE } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useSaveLanguage } from '../api/language';

/**
 * The language menu (issue 31): each language named in its own words. The interface changes at once, the choice is
 * kept in this browser, and a signed-in person's account keeps it too, for their mails. `label` shows a visible
 * label (the profile); the navigation's menu is named for screen readers only. A native select, styled in
 * styles.css: it is on every page's first load, where Mantine's select would bring its whole dropdown machinery.
 */
export function LanguageSelect({ label = false, testId }: { label?: boolean; testId?: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const logged = useSession((state) => state.logged);
  const save = useSaveLanguage();
  const change = async (language: Language) => {
    await chooseLanguage(language);
    if (logged) save.mutate(language, { onError: (error) => notifyError(error, 'notify.languageSaveFailed') });
  };
  return (
    <div className="language-select">
      {label && <label htmlFor={id}>{t('nav.language')}</label>}
      <span className="language-select-field">
        <IconLanguage size={16} aria-hidden />
        <select
          id={id}
          data-testid={testId}
          aria-label={label ? undefined : t('nav.language')}
          value={i18n.language === PSEUDO_LANGUAGE ? 'en-US' : i18n.language}
          onChange={(event) => void change(event.currentTarget.value as Language)}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
