import { z } from 'zod';
import {
  acceptedSchema,
  catalystIdSchema,
  emailSchema,
  messages,
  newPasswordSchema,
  passwordLengthSchema,
  passwordMatches,
  passwordMatchIssue,
} from '@cr/contract/rules';

/** The forms' rules: the contract's, so the client refuses exactly what the server would (spec §5). */
export const loginFormSchema = z.object({
  catalyst_id: catalystIdSchema,
  password: z.string().min(1, messages.required),
});
export type LoginFormValues = z.infer<typeof loginFormSchema>;

export const registerFormSchema = z
  .object({
    catalyst_id: catalystIdSchema,
    email: emailSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
    privacy_policy: acceptedSchema,
    terms_and_conditions: acceptedSchema,
    budget_approval: acceptedSchema,
  })
  .refine(passwordMatches, passwordMatchIssue);
export type RegisterFormValues = z.input<typeof registerFormSchema>;

export const resetFormSchema = z
  .object({
    catalyst_id: catalystIdSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
    confirmation_token: z.string().min(1),
  })
  .refine(passwordMatches, passwordMatchIssue);
export type ResetFormValues = z.infer<typeof resetFormSchema>;

export const changePasswordFormSchema = z
  .object({
    old_password: passwordLengthSchema,
    password: newPasswordSchema,
    password_confirmation: passwordLengthSchema,
  })
  .refine(passwordMatches, passwordMatchIssue);
export type ChangePasswordFormValues = z.infer<typeof changePasswordFormSchema>;

export const changeEmailFormSchema = z.object({ email: emailSchema });
