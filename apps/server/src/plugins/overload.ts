import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, translateMessage } from '../lib/i18n';

export const overloadMessage = 'The server is busy. Please try again in a few seconds.';

/**
 * Load shedding (issue 30 item 4), with @fastify/under-pressure: while the event loop lags more than
 * `maxEventLoopDelayMs` or the heap is fuller than `maxHeapUsedRatio` of its limit (sampled each second), requests
 * answer 503 with Retry-After at once, instead of queueing behind the work already taken on. Liveness and the
 * metrics still answer (a route opts out with `config.pressureHandler: () => undefined`): a busy instance is neither
 * dead nor blind. Readiness answers 503 too, so that a load balancer sends the traffic elsewhere meanwhile.
 */
export async function registerOverload(
  app: FastifyInstance,
  options: { maxEventLoopDelayMs: number; maxHeapUsedRatio: number; retryAfterSeconds: number; sampleIntervalMs?: number },
): Promise<void> {
  if (options.maxEventLoopDelayMs === 0 && options.maxHeapUsedRatio === 0) return;
  let loggedAt = 0;
  const shed = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
    // One line per ten seconds of overload, not one per refused request.
    if (Date.now() - loggedAt > 10_000) {
      loggedAt = Date.now();
      app.log.warn({ type, value }, 'overloaded: answering 503 with Retry-After');
    }
    void reply.code(503).header('retry-after', String(options.retryAfterSeconds));
    return { message: translateMessage(overloadMessage, requestLanguage(request.headers)) };
  };
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: Math.floor(options.maxHeapUsedRatio * getHeapStatistics().heap_size_limit),
    sampleInterval: options.sampleIntervalMs ?? 1000,
    retryAfter: options.retryAfterSeconds,
    // The plugin sends what the handler returns (its types say void): the API's `{ message }` body.
    pressureHandler: shed as unknown as () => void,
  });
}
