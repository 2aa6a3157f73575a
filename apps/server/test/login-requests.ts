import { API, type TestContext } from './build-test-app';

/** A login form POST from a given client address (the guessing limits are per address). */
export const loginFrom = (ctx: TestContext, catalystId: string, password: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${API}/users/token/login`,
    payload: new URLSearchParams({ username: catalystId, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress,
  });
