import { LANGUAGES, type Language } from '@cr/contract/languages';
import { useEffect } from 'react';
import { chooseLanguage, currentLanguage, languageChosenHere } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useSaveLanguage } from '../api/language';

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/**
 * Keeps the interface and the account on one language (issue 31): signed in on a new browser, the account's choice
 * applies; an account that has none takes the one chosen in this browser's menu (so that its mails follow it). A
 * language only negotiated from the browser is not stored: the person never chose it.
 */
export function AccountLanguage() {
  const userInfo = useSession((state) => state.userInfo);
  const logged = useSession((state) => state.logged);
  const save = useSaveLanguage();
  const { mutate } = save;
  const accountLanguage = userInfo?.extra.language;
  const known = logged && userInfo !== null && userInfo !== undefined;
  useEffect(() => {
    if (!known) return;
    const shown = currentLanguage();
    if (accountLanguage) {
      if (accountLanguage !== shown) void chooseLanguage(accountLanguage);
    } else if (languageChosenHere() && isLanguage(shown)) {
      mutate(shown);
    }
  }, [known, accountLanguage, mutate]);
  return null;
}
