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
import { LANGUAGES } from './languages';

import { AccountStatus, DueDiligenceStatus, RegistrationStatus, UserRole } from './plain';

// Account status, on-chain registration, due diligence and role (spec §4, §6) live in plain.ts (no zod).
export { AccountStatus, DueDiligenceStatus, RegistrationStatus, UserRole };

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
  /**
   * valid ÷ (submitted − blank), 0 when nothing was submitted or all was blank (spec §2.16): the server's figure,
   * the one the level qualifiers are checked against; the profile shows it as a rounded percent.
   */
  approval_rate: z.number(),
});
export const currentReviewStats = z.object({
  allocations: z.number().int(),
  submitted: z.number().int(),
  allocated_submitted: z.number().int(),
});

export const languageSchema = z.enum(LANGUAGES);
/** `PUT users/me/language/` (issue 31). */
export const languageBody = z.object({ language: languageSchema });
export const languageAnswer = z.object({ language: languageSchema });

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
    /** The interface language chosen on the profile or the language menu; null: not chosen (issue 31). */
    language: languageSchema.nullable(),
    registered_at: z.string(),
    /** Issue 47: a banned account's ban (the reason it is shown at login, and when); absent when not banned. */
    ban: z.object({ reason: z.string(), banned_at: z.string() }).optional(),
    stats: z.object({ reviews: currentReviewStats }),
    historic_stats: z.object({
      reviews: historicReviewStats,
      moderations: z.object({ active_funds: z.number().int(), submitted: z.number().int() }),
    }),
  }),
});
export type UserInfo = z.infer<typeof userInfo>;

export const healthz = z.object({ status: z.literal('ok'), database: z.literal('ok') });
/** `GET livez`: the process answers (it does not ask the database). */
export const livez = z.object({ status: z.literal('ok') });

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
