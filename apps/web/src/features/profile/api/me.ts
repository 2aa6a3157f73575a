import { queryOptions } from '@tanstack/react-query';
import { sharedKeys } from '../../../lib/query-keys';
import { loadUserInfo } from '../../../lib/session';

/** `GET users/me/`: the signed-in user's info as the profile shows it (and the session keeps). */
export const userInfoQuery = queryOptions({ queryKey: sharedKeys.me, queryFn: loadUserInfo });
