import { z } from 'zod';
import { messages } from '@cr/contract/rules';

/** Spec §5 "Subscription": both acknowledgements accepted; categories (LV1 only) optional. Loaded on the first check. */
export const subscribeFormSchema = z.object({
  want_to_be_reviewer: z.literal(true, { error: messages.accepted }),
  fund_rules_acceptance: z.literal(true, { error: messages.accepted }),
  preferred_categories: z.array(z.string()),
});
