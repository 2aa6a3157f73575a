import type { AccessToken, CatalystIdPublic, NewUser, UpdateUser, UserReset } from '@cr/contract/users';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/** One request function per endpoint of spec §7 "Users and session", each with its mutation hook. */

export const registerUser = (newUser: NewUser) => api<boolean>('users/', { method: 'POST', body: { new_user: newUser } });
export const useRegister = () => useInvalidatingMutation('register', { mutationFn: registerUser });

export const activateAccount = (token: string) =>
  api<boolean>('users/activate', { method: 'POST', body: { user_activation: { confirmation_token: token } } });
export const useActivate = () => useInvalidatingMutation('activate', { mutationFn: activateAccount });

export const verifyEmail = (token: string) =>
  api<boolean>('catalyst-ids/verify-email', { method: 'POST', body: { email_verification: { confirmation_token: token } } });
export const useVerifyEmail = () => useInvalidatingMutation('verifyEmail', { mutationFn: verifyEmail });

export const requestPasswordReset = (catalystId: string) =>
  api<boolean>('users/password/reset-request', { method: 'POST', body: { new_user: { catalyst_id: catalystId } } });
export const useRequestPasswordReset = () => useInvalidatingMutation('requestPasswordReset', { mutationFn: requestPasswordReset });

export const resetPassword = (userReset: UserReset) =>
  api<boolean>('users/password/reset', { method: 'POST', body: { user_reset: userReset } });
export const useResetPassword = () => useInvalidatingMutation('resetPassword', { mutationFn: resetPassword });

/** Answers a new access token for the same session (the other sessions end). */
export const updatePassword = (updateUser: UpdateUser) =>
  api<AccessToken>('users/password/update', { method: 'POST', body: { update_user: updateUser } });
export const useUpdatePassword = () => useInvalidatingMutation('updatePassword', { mutationFn: updatePassword });

export const changeEmail = (email: string) =>
  api<CatalystIdPublic>('catalyst-ids/me', { method: 'POST', body: { email, redirect: '/profile' } });
export const useChangeEmail = () => useInvalidatingMutation('changeEmail', { mutationFn: changeEmail });
