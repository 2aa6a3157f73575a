/**
 * A token bucket: `take()` resolves when a token is free, at most `ratePerSecond` a second on average and at most
 * `capacity` (default: one second's worth) at once after a quiet time. Takers are served in order: each reserves
 * the next token and waits until it is due.
 */
export function createTokenBucket(ratePerSecond: number, options: { capacity?: number; now?: () => number } = {}) {
  const capacity = Math.max(1, options.capacity ?? Math.ceil(ratePerSecond));
  const now = options.now ?? (() => performance.now());
  let tokens = capacity;
  let last = now();
  return {
    /** Milliseconds until the reserved token is due (0: at once). */
    reserve(): number {
      const time = now();
      tokens = Math.min(capacity, tokens + ((time - last) * ratePerSecond) / 1000);
      last = time;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens * 1000) / ratePerSecond;
    },
    async take(): Promise<void> {
      const wait = this.reserve();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },
  };
}
export type TokenBucket = ReturnType<typeof createTokenBucket>;
