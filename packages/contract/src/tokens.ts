import { z } from 'zod';
import { TOKEN_SCOPES } from './plain';
import { rowId } from './common';
import { requiredInt } from './proposals';
import { messages, requiredText } from './rules';

/**
 * Personal API tokens (issue 29 item 3): a user makes tokens for their scripts on the profile. A token carries scopes;
 * every API route states the scope it needs (`read` for what the caller may read, `review` for writing their own
 * reviews and appeals, `moderate` for moderations and appeal decisions, `admin-read` for exports and dashboards, to
 * admins only). Account, session and admin writes take no token at all.
 */

export { TOKEN_EXPIRY_DAYS_DEFAULT, TOKEN_SCOPES, type TokenScope } from './plain';

/** What a token looks like: this prefix and 43 base64url characters (256 random bits). */
export const TOKEN_PREFIX = 'crpat_';
export const TOKEN_NAME_MAX = 100;
export const TOKEN_EXPIRY_DAYS_MAX = 365;
/** Live tokens a user may hold at once. */
export const TOKENS_PER_USER_MAX = 20;

export const newApiToken = z.object({
  name: requiredText.max(TOKEN_NAME_MAX, messages.maxLength),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: messages.tokenScopes }), { error: missingScopes })
    .min(1, { error: messages.tokenScopes })
    .transform((scopes) => [...new Set(scopes)]),
  expires_in_days: requiredInt.min(1, { error: messages.tokenExpiry }).max(TOKEN_EXPIRY_DAYS_MAX, { error: messages.tokenExpiry }),
});
function missingScopes() {
  return messages.tokenScopes;
}
export type NewApiToken = z.infer<typeof newApiToken>;
export const newApiTokenBody = z.object({ new_api_token: newApiToken });

export const apiTokenPublic = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  /** The token's first characters, to tell it apart. */
  hint: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiTokenPublic = z.infer<typeof apiTokenPublic>;

/** The answer to a creation: the token itself, this once. */
export const createdApiToken = apiTokenPublic.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiToken>;

export const apiTokenIdParams = z.object({ id: rowId });

export const tokenMessages = {
  adminReadOnlyAdmins: 'Only admins may give a token the admin-read scope.',
  tooMany: `You have ${TOKENS_PER_USER_MAX} live tokens: revoke one first.`,
  notFound: 'This token does not exist.',
  invalid: 'This API token is not valid: it is unknown, expired or revoked.',
  missingScope: (scope: string) => `This API token does not have the ${scope} scope this request needs.`,
  notForTokens: 'This request cannot be made with an API token: sign in instead.',
};
