import type { InvitationAnswer, NewSubscription } from '@cr/contract/subscriptions';
import type { SubscriptionPublic } from '@cr/contract/users';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/** `POST subscriptions/` with new_subscription; answers the user's subscriptions to that event (spec §7). */
export const subscribe = (input: NewSubscription) =>
  api<SubscriptionPublic[]>('subscriptions/', { method: 'POST', body: { new_subscription: input } });
export const useSubscribe = () => useInvalidatingMutation('subscribe', { mutationFn: subscribe });

/** `POST subscriptions/invitation` with invitation_answer (status 1 yes, 0 no; role 2). */
export const answerInvitation = (answer: InvitationAnswer) =>
  api<SubscriptionPublic[]>('subscriptions/invitation', { method: 'POST', body: { invitation_answer: { ...answer, role: 2 } } });
export const useAnswerInvitation = () => useInvalidatingMutation('answerInvitation', { mutationFn: answerInvitation });

/** `POST subscriptions/invite` with invitation {event_id, catalyst_id} (admin). */
export const inviteToLevel2 = (invitation: { event_id: number; catalyst_id: string }) =>
  api<SubscriptionPublic[]>('subscriptions/invite', { method: 'POST', body: { invitation } });
export const useInvite = () => useInvalidatingMutation('invite', { mutationFn: inviteToLevel2 });
