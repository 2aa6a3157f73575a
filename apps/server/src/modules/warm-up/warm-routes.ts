import type { FastifyInstance } from 'fastify';

/** How many times the warm-up asks each hot public read through the HTTP layer, at most (issue 45 item 14). */
export const WARM_ROUTE_ROUNDS = 60;

/**
 * The server's own code, warmed: before it listens, the hot reads of a signed-out visitor of the current round — the
 * rounds and their settings, two pages of proposals, a proposal, a page of reviews, a review — are asked through the
 * whole HTTP layer (`app.inject`: the hooks, the cookie and security headers, the validation, the route, the driver's
 * parsing of the rows, the answer's writing), `rounds` times each, side by side. A cold start's first 10 s under 180
 * users took about twice the CPU a request of the minutes after it, in every part of that path alike: V8 runs code
 * it has not optimised yet more slowly, and it optimises what it has run often. The service-level warm-up before this
 * (warm-up.service.ts) prepares the statements on every pooled connection; this is the rest of the path.
 *
 * These requests are answered as any other (they are counted by /metrics as requests of the route); the per-request
 * log lines are left out while they run. Stops at `deadline`; never throws (an answer that fails is the requests' to
 * meet). Answers how many requests it made.
 */
export async function warmRoutes(
  app: FastifyInstance,
  options: { base: string; deadline: number; rounds?: number; now?: () => number },
): Promise<{ requests: number; rounds: number }> {
  const now = options.now ?? Date.now;
  const rounds = options.rounds ?? WARM_ROUTE_ROUNDS;
  let requests = 0;
  const get = async (url: string) => {
    requests += 1;
    return app.inject({ method: 'GET', url: `${options.base}/${url}` });
  };
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    const current = await get('events/current/');
    const events = current.statusCode === 200 ? (current.json() as { row_id: number }[]) : [];
    const event = events[0]?.row_id;
    if (event === undefined) return { requests, rounds: 0 };
    const firstId = (body: string) => /"row_id":(\d+)/.exec(body)?.[1];
    const proposal = firstId((await get(`proposals/?size=25&page=0&event_id=${event}`)).body);
    const review = firstId((await get(`proposal-reviews/filtered?size=25&page=0&event_id=${event}`)).body);
    const urls = [
      'events/current/',
      `configs/reviews/${event}/`,
      'proposals/?size=25&page=0',
      'proposals/?size=25&page=1',
      'proposal-reviews/filtered?size=25&page=0',
      ...(proposal ? [`proposals/${proposal}/`] : []),
      ...(review ? [`proposal-reviews/${review}/`] : []),
    ];
    let done = 0;
    while (done < rounds && now() < options.deadline) {
      await Promise.all(urls.map(get));
      done += 1;
    }
    return { requests, rounds: done };
  } catch {
    return { requests, rounds: 0 };
  } finally {
    app.log.level = level;
  }
}
