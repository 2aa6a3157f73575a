import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * A react-hook-form resolver for a zod schema that is fetched the first time the form validates (issue 30 item 5).
 * zod and the contract's schemas are 21 KB compressed: a page that shows a form no longer loads them before it can
 * show anything, only once someone types or submits. The rules are the contract's, as on the server; the first check
 * waits for the fetch (the app's service worker keeps it offline), later ones run at once.
 *
 *   resolver: lazyZodResolver(() => import('@cr/contract/reviews').then((m) => m.reviewFields)),
 *
 * `invalidStart`: the form's default values, when they are invalid (a required field is empty). Until someone changes
 * a value, the form then answers "invalid" without fetching anything. A form that keeps Save disabled until it is
 * valid has react-hook-form validate on mount, which would fetch zod with the page; with this, zod comes with the
 * first keystroke. The answer is an error on `root` with no message: Save stays disabled, no field shows an error.
 */
export function lazyZodResolver<TInput extends FieldValues, TContext = unknown, TOutput = TInput>(
  load: () => Promise<ZodType>,
  { invalidStart }: { invalidStart?: TInput } = {},
): Resolver<TInput, TContext, TOutput> {
  let resolver: Promise<Resolver<TInput, TContext, TOutput>> | undefined;
  const start = invalidStart && JSON.stringify(invalidStart);
  return async (values, context, options) => {
    if (start && !resolver && JSON.stringify(values) === start) {
      return { values: {}, errors: { root: { type: 'invalid-start', message: '' } } } as never;
    }
    resolver ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) => zodResolver(schema as never) as unknown as Resolver<TInput, TContext, TOutput>,
    );
    // A failed fetch (offline without the cached file) is tried again on the next check.
    try {
      return await (
        await resolver
      )(values, context, options);
    } catch (error) {
      resolver = undefined;
      throw error;
    }
  };
}
