import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const show = vi.hoisted(() => vi.fn());
vi.mock('@mantine/notifications', () => ({ notifications: { show } }));

import { ApiError } from './api-error';
import { loadMoreStrings } from './i18n';
import { TOAST_MS, notifyError, notifySuccess } from './notify';

type Shown = { color: string; title: string; message: string; autoClose: number };
const shown = () => show.mock.calls.at(-1)?.[0] as Shown;

beforeEach(() => show.mockReset());

describe('toasts (spec §8)', () => {
  // The reviews' strings load with their pages (issue 16).
  beforeAll(() => loadMoreStrings());

  it('shows errors as red toasts for 5 seconds (A-123)', () => {
    expect(TOAST_MS).toBe(5000);
    notifyError(new Error('x'), 'notify.loginFailed');
    expect(shown()).toMatchObject({ color: 'red', autoClose: 5000 });
  });

  it('shows successes as green toasts (A-124)', () => {
    notifySuccess('notify.loggedIn');
    expect(shown()).toMatchObject({ color: 'green', message: 'Logged in', autoClose: 5000 });
    notifySuccess('notify.loggedOut');
    expect(shown().message).toBe('Logged out');
  });

  it("titles a several-outcome notice with the spec's text and names the outcome in the body (E-015, DOMAIN.md 14)", () => {
    notifySuccess('reviews.deleted', 'reviews.saved');
    expect(shown()).toMatchObject({ color: 'green', title: 'Review submitted, updated or deleted', message: 'Review deleted' });
  });

  it("uses the server's message when present, otherwise the fixed text (A-125, A-057)", () => {
    notifyError(new ApiError(401, 'Wrong password', 'Wrong password'), 'notify.loginFailed');
    expect(shown().message).toBe('Wrong password');
    notifyError(new ApiError(502, 'Bad Gateway', undefined), 'notify.loginFailed');
    expect(shown().message).toBe('Login failed. Please try again');
    notifyError(new Error('network down'), 'notify.loginFailed');
    expect(shown().message).toBe('Login failed. Please try again');
  });

  it('has the default error texts, the first used when no fixed text is given (A-126)', () => {
    notifyError(undefined);
    expect(shown().message).toBe('An error occurred. Please try again.');
    notifyError(new ApiError(500, 'HTTP 500', undefined), 'notify.unexpected');
    expect(shown().message).toBe('An unexpected error occurred. Please try again.');
  });
});
