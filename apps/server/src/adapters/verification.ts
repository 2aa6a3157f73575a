import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Identity verification (KYC) and due diligence (DOMAIN.md "Identity and accounts"). `none` verifies nobody: a
 * subscription is active at once and due diligence stays unknown. `provider` speaks the shape of a hosted
 * verification service such as Sumsub: we hand the person a link carrying our reference, and the provider later
 * reports the result to our webhook, signed with a shared secret (HMAC of the raw body).
 */
export type CheckKind = 'identity' | 'due_diligence';

/** What a webhook call reports about one of our references. */
export type CheckOutcome = 'created' | 'pending' | 'green' | 'red';

export interface VerificationProvider {
  readonly enabled: boolean;
  /** Starts a check: our reference (random, 128 bits) and the link the person follows; null when verification is off. */
  start(kind: CheckKind): { ref: string; link: string } | null;
  /** Whether a webhook body carries the provider's signature over exactly these bytes. */
  signatureValid(rawBody: Buffer, headers: { algorithm?: string | undefined; digest?: string | undefined }): boolean;
}

/** The webhook's body: the provider's event type, our reference, and for a finished review its answer. */
export const webhookPayload = z.object({
  type: z.string().min(1),
  externalUserId: z.string().min(1),
  levelName: z.string().optional(),
  reviewResult: z.object({ reviewAnswer: z.enum(['GREEN', 'RED']) }).optional(),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

/** The outcome a webhook event means, or null for the events we don't act on. */
export function outcomeOf(payload: WebhookPayload): CheckOutcome | null {
  switch (payload.type) {
    case 'applicantCreated':
      return 'created';
    case 'applicantPending':
    case 'applicantOnHold':
      return 'pending';
    case 'applicantReviewed':
      return payload.reviewResult ? (payload.reviewResult.reviewAnswer === 'GREEN' ? 'green' : 'red') : null;
    default:
      return null;
  }
}

/** The digest algorithms a provider may sign with (header `x-payload-digest-alg`; reference API `SumSubDigestAlg`). */
export const digestAlgorithms = { HMAC_SHA1_HEX: 'sha1', HMAC_SHA256_HEX: 'sha256', HMAC_SHA512_HEX: 'sha512' } as const;

/** The signature a provider sends with a body: used by the tests' fake provider and by `signatureValid`. */
export function signPayload(
  secret: string,
  rawBody: Buffer | string,
  algorithm: keyof typeof digestAlgorithms = 'HMAC_SHA256_HEX',
): string {
  return createHmac(digestAlgorithms[algorithm], secret).update(rawBody).digest('hex');
}

export const noVerification: VerificationProvider = {
  enabled: false,
  start: () => null,
  signatureValid: () => false,
};

export function providerVerification(options: { url: string; secret: string }): VerificationProvider {
  return {
    enabled: true,
    start(kind) {
      const ref = randomBytes(16).toString('hex');
      const link = new URL(options.url);
      link.searchParams.set('level', kind);
      link.searchParams.set('ref', ref);
      return { ref, link: link.toString() };
    },
    signatureValid(rawBody, headers) {
      const algorithm = (headers.algorithm ?? 'HMAC_SHA256_HEX') as keyof typeof digestAlgorithms;
      if (!Object.hasOwn(digestAlgorithms, algorithm) || !headers.digest || !/^[0-9a-f]+$/i.test(headers.digest)) return false;
      const expected = Buffer.from(signPayload(options.secret, rawBody, algorithm), 'hex');
      const given = Buffer.from(headers.digest, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export function createVerificationProvider(config: {
  VERIFICATION_PROVIDER: 'none' | 'provider';
  VERIFICATION_URL?: string | undefined;
  VERIFICATION_WEBHOOK_SECRET?: string | undefined;
}): VerificationProvider {
  if (config.VERIFICATION_PROVIDER === 'provider' && config.VERIFICATION_URL && config.VERIFICATION_WEBHOOK_SECRET) {
    return providerVerification({ url: config.VERIFICATION_URL, secret: config.VERIFICATION_WEBHOOK_SECRET });
  }
  return noVerification;
}
