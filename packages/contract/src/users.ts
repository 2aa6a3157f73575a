import { z } from 'zod';
import { pageQuery } from './common';
import {
  acceptedSchema,
  catalystIdSchema,
  emailSchema,
  messages,
  newPasswordSchema,
  passwordLengthSchema,
  passwordMatches,
  passwordMatchIssue,
  requiredText,
  text,
  missingOr,
} from './rules';

/** Account status, spec §4. */
export const AccountStatus = { inactive: 0, email_verified: 1, active: 2, banned: 3 } as const;
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];
/** On-chain registration status, spec §4. */
export const RegistrationStatus = { initialized: 0, not_found: 1, volatile: 2, persistent: 3 } as const;
/** Due-diligence status, spec §4. */
export const DueDiligenceStatus = { unknown: 0, initialized: 1, pending: 2, green: 3, red: 4 } as const;
/** User role, spec §6: admin is 100. */
export const UserRole = { user: 0, admin: 100 } as const;

// ---- requests -------------------------------------------------------------------------------------------------

export const policyAcknowledgments = z.object({
  privacy_policy: acceptedSchema,
  terms_and_conditions: acceptedSchema,
});

export const newUser = z
  .object({
    catalyst_id: catalystIdSchema,
    email: emailSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
    extra: z.object({ policy_acknowledgments: policyAcknowledgments }),
  })
  .refine(passwordMatches, passwordMatchIssue);
export type NewUser = z.infer<typeof newUser>;
export const registerBody = z.object({ new_user: newUser });

export const loginForm = z.object({
  username: catalystIdSchema,
  password: text({ error: missingOr(messages.expectedText) })
    .min(1, messages.required)
    .max(1000, messages.maxLength),
});
export type LoginForm = z.infer<typeof loginForm>;

export const confirmationToken = z.object({ confirmation_token: requiredText.max(200) });
export const activateBody = z.object({ user_activation: confirmationToken });
export const verifyEmailBody = z.object({ email_verification: confirmationToken });

export const resetRequestBody = z.object({ new_user: z.object({ catalyst_id: catalystIdSchema }) });

export const userReset = z
  .object({
    catalyst_id: catalystIdSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
    confirmation_token: requiredText.max(200),
  })
  .refine(passwordMatches, passwordMatchIssue);
export type UserReset = z.infer<typeof userReset>;
export const resetBody = z.object({ user_reset: userReset });

export const updateUser = z
  .object({
    old_password: passwordLengthSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
  })
  .refine(passwordMatches, passwordMatchIssue);
export type UpdateUser = z.infer<typeof updateUser>;
export const updatePasswordBody = z.object({ update_user: updateUser });

/** `POST catalyst-ids/me` (reference API: CatalystIDCreate): change the e-mail of one's Catalyst ID. */
export const catalystIdUpdate = z.object({
  email: emailSchema,
  /** Where the verification link sends the user afterwards: a path inside the app. */
  redirect: text()
    .regex(/^\/(?!\/)[^\s]*$/, 'validation.url')
    .max(500)
    .optional(),
});
export const catalystIdUpdateBody = catalystIdUpdate;

// ---- responses ------------------------------------------------------------------------------------------------

export const accessToken = z.object({ access_token: z.string(), token_type: z.literal('bearer') });
export type AccessToken = z.infer<typeof accessToken>;

export const catalystIdPublic = z.object({
  id: z.string(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  username: z.string().nullable(),
  status: z.number().int(),
  rbac_reg_status: z.number().int(),
});
export type CatalystIdPublic = z.infer<typeof catalystIdPublic>;

export const subscriptionPublic = z.object({
  row_id: z.number().int(),
  event_id: z.number().int(),
  /** `user_id` and the event's `row_id`, `description`, `active`: the reference API's subscription (issue 17). */
  user_id: z.number().int(),
  event: z.object({ row_id: z.number().int(), name: z.string(), description: z.string(), active: z.boolean() }),
  role: z.number().int(),
  status: z.number().int(),
  extra: z.object({
    anonymous_id: z.string(),
    sumsub_link: z.string().nullable().optional(),
    reward_address: z.string().nullable().optional(),
    public_contact: z.string().nullable().optional(),
    telegram_handle_private: z.string().nullable().optional(),
    preferred_categories: z.array(z.object({ id: z.number().int(), title: z.string() })),
    subscribed_at: z.string(),
  }),
});
export type SubscriptionPublic = z.infer<typeof subscriptionPublic>;

export const historicReviewStats = z.object({
  active_funds: z.number().int(),
  submitted: z.number().int(),
  blank: z.number().int(),
  valid: z.number().int(),
});
export const currentReviewStats = z.object({
  allocations: z.number().int(),
  submitted: z.number().int(),
  allocated_submitted: z.number().int(),
});

export const userInfo = z.object({
  email: z.string().nullable(),
  username: z.string().nullable(),
  catalyst_id: catalystIdPublic,
  extra: z.object({
    role: z.number().int(),
    force_reset: z.boolean(),
    unique_objectives_as_author: z.array(z.number().int()),
    subscriptions: z.array(subscriptionPublic),
    due_diligence: z.object({ status: z.number().int(), url: z.string().nullable() }),
    registered_at: z.string(),
    stats: z.object({ reviews: currentReviewStats }),
    historic_stats: z.object({
      reviews: historicReviewStats,
      moderations: z.object({ active_funds: z.number().int(), submitted: z.number().int() }),
    }),
  }),
});
export type UserInfo = z.infer<typeof userInfo>;

export const healthz = z.object({ status: z.literal('ok'), database: z.literal('ok') });

// ---- admin: users ----------------------------------------------------------------------------------------------

/** `GET admin/users?size&page[&search]`: one row of the Users tab (spec §2.17). */
export const adminUserRow = z.object({
  id: z.number().int(),
  catalyst_id: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  registered_at: z.string(),
  status: z.number().int(),
  role: z.number().int(),
});
export type AdminUserRow = z.infer<typeof adminUserRow>;

export const adminUsersQuery = pageQuery.extend({
  /** Part of a Catalyst ID, username or e-mail address; case-insensitive. */
  search: text().trim().max(200).optional(),
});

/** `GET admin/users/{id}`: by Catalyst ID (with or without its scheme) or by numeric user id. */
export const adminUserParams = z.object({ id: text().min(1).max(500) });
