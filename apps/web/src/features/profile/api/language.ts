import type { Language } from '@cr/contract/languages';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { useSession } from '../../../lib/session';

/** Issue 31: the interface language kept with the account, so that the person's mails follow it. */
export function useSaveLanguage() {
  return useInvalidatingMutation('saveLanguage', {
    mutationFn: (language: Language) => api<{ language: Language }>('users/me/language/', { method: 'PUT', body: { language } }),
    // The session's copy of the account follows at once (what keeps the interface and the account on one language).
    onSuccess: ({ language }) => {
      const { userInfo } = useSession.getState();
      if (userInfo) useSession.setState({ userInfo: { ...userInfo, extra: { ...userInfo.extra, language } } });
    },
  });
}
