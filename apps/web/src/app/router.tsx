import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { registerRouter } from '../lib/navigation-state';
import { loadAdminStrings, loadMoreStrings } from '../lib/i18n';
import { isForcedReset, useSession } from '../lib/session';
import { AppLayout } from './layout/app-layout';
import { firstReads, startFrameReads } from './route-loaders';
import { RouteError } from './routes/route-error';

/**
 * The route table of spec §2.1. Route ids are the spec's route names. Guards (§2.2) are loaders that redirect;
 * they read the persisted session synchronously, so a guarded screen never flashes.
 */

const LOGIN_REQUIRED = ['/allocated-reviews', '/moderated-reviews', '/profile', '/admin', '/appeals', '/appeal'];
const BLOCKED_BY_FORCED_RESET = ['/allocated-reviews', '/moderated-reviews', '/review/', '/reviews', '/appeals', '/appeal/'];

export function guard({ request }: { request: Request }) {
  const path = new URL(request.url).pathname;
  const session = useSession.getState();
  if (path === '/login' && session.logged) return redirect('/profile');
  if (!session.logged && LOGIN_REQUIRED.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return redirect('/login');
  if (path === '/reset-password' && session.logged && !isForcedReset(session)) return redirect('/profile');
  if (
    isForcedReset(session) &&
    BLOCKED_BY_FORCED_RESET.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))
  ) {
    return redirect('/reset-password');
  }
  return null;
}

/** The root's loader: the guard, then the reads every page starts with (app/route-loaders.ts). */
function rootLoader({ request }: { request: Request }) {
  const blocked = guard({ request });
  if (!blocked) startFrameReads();
  return blocked;
}

type LoaderArgs = { request: Request; params: Record<string, string | undefined> };

/**
 * `/proposals/3` → `/proposals?page=3`: the page lives in the query (DOMAIN.md decision 1); else the page's first reads.
 */
const pageInPath =
  (firstRead: (args: LoaderArgs) => null) =>
  ({ request, params }: LoaderArgs) => {
    const blocked = guard({ request });
    if (blocked) return blocked;
    if (params.page === undefined) return firstRead({ request, params });
    const url = new URL(request.url);
    const base = url.pathname.replace(/\/[^/]*$/, '');
    const page = Number.parseInt(params.page, 10);
    if (Number.isInteger(page) && page >= 0) url.searchParams.set('page', String(page));
    return redirect(`${base}?${url.searchParams}`);
  };

/** The strings a route waits for (lib/i18n.ts): the first load's only, the other screens', or those and the admin's. */
type RouteStrings = 'first' | 'more' | 'admin';
const stringsFor: Record<RouteStrings, () => Promise<void> | undefined> = {
  first: () => undefined,
  more: loadMoreStrings,
  admin: loadAdminStrings,
};

/**
 * A route's module, loaded on first visit, with the strings it needs: those outside the first load unless the page
 * needs only the first load's (the home page, the proposals list, the login page); the admin routes also the admin's.
 */
const lazyPage =
  (load: () => Promise<{ default: React.ComponentType }>, strings: RouteStrings = 'more') =>
  async () => {
    const [module] = await Promise.all([load(), stringsFor[strings]()]);
    return { Component: module.default };
  };

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <AppLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => null,
    loader: rootLoader,
    shouldRevalidate: () => true,
    children: [
      { id: 'home', index: true, lazy: lazyPage(() => import('./routes/home'), 'first') },
      { id: 'login', path: 'login', lazy: lazyPage(() => import('./routes/auth/login'), 'first') },
      { id: 'profile', path: 'profile', loader: firstReads.profile, lazy: lazyPage(() => import('./routes/profile/profile')) },
      { id: 'reset-requested', path: 'check-your-inbox', lazy: lazyPage(() => import('./routes/auth/check-your-inbox')) },
      { id: 'reset-password', path: 'reset-password', lazy: lazyPage(() => import('./routes/auth/reset-password')) },
      { id: 'register', path: 'register', lazy: lazyPage(() => import('./routes/auth/register')) },
      { id: 'account-activation', path: 'account/activation', lazy: lazyPage(() => import('./routes/auth/account-activation')) },
      { id: 'email-verification', path: 'account/email-verification', lazy: lazyPage(() => import('./routes/auth/email-verification')) },
      // A notification's one-click unsubscribe link (issue 27): no login needed.
      { id: 'unsubscribe', path: 'unsubscribe', lazy: lazyPage(() => import('./routes/profile/unsubscribe')) },
      {
        id: 'proposals',
        path: 'proposals/:page?',
        loader: pageInPath(firstReads.proposals),
        lazy: lazyPage(() => import('./routes/proposals/proposals'), 'first'),
      },
      { id: 'proposal', path: 'proposal/:id', loader: firstReads.proposal, lazy: lazyPage(() => import('./routes/proposals/proposal')) },
      // Loaded lazily (spec §2.1): its code is fetched on first visit.
      {
        id: 'AllocatedProposals',
        path: 'allocated-proposals',
        loader: firstReads.allocatedProposals,
        lazy: lazyPage(() => import('./routes/proposals/allocated-proposals')),
      },
      { id: 'reviews', path: 'reviews/:page?', loader: pageInPath(() => null), lazy: lazyPage(() => import('./routes/reviews/reviews')) },
      { id: 'review', path: 'review/:id', loader: firstReads.review, lazy: lazyPage(() => import('./routes/reviews/review')) },
      {
        id: 'allocated-reviews',
        path: 'allocated-reviews/:page?',
        loader: pageInPath(firstReads.allocatedReviews),
        lazy: lazyPage(() => import('./routes/reviews/allocated-reviews')),
      },
      {
        id: 'moderated-reviews',
        path: 'moderated-reviews/:page?',
        loader: pageInPath(() => null),
        lazy: lazyPage(() => import('./routes/reviews/moderated-reviews')),
      },
      // Appeals (issue 28 item 2): the moderator's allocated appeals and an appeal's decision page.
      { id: 'allocated-appeals', path: 'appeals', lazy: lazyPage(() => import('./routes/appeals/allocated-appeals')) },
      { id: 'appeal', path: 'appeal/:id', lazy: lazyPage(() => import('./routes/appeals/appeal')) },
      {
        id: 'open-data-rounds',
        path: 'open-data',
        lazy: lazyPage(() => import('./routes/open-data/open-data-rounds')),
      },
      { id: 'open-data', path: 'rounds/:id/open-data', lazy: lazyPage(() => import('./routes/open-data/open-data')) },
      {
        id: 'admin',
        path: 'admin',
        lazy: lazyPage(() => import('./routes/admin/admin-layout'), 'admin'),
        children: [
          { index: true, loader: () => redirect('/admin/events') },
          {
            id: 'admin-events',
            path: 'events',
            loader: firstReads.adminEvents,
            lazy: lazyPage(() => import('./routes/admin/events'), 'admin'),
          },
          { id: 'admin-users', path: 'users', lazy: lazyPage(() => import('./routes/admin/users'), 'admin') },
          { id: 'admin-status', path: 'status', lazy: lazyPage(() => import('./routes/admin/status'), 'admin') },
          { id: 'admin-mail', path: 'mail', lazy: lazyPage(() => import('./routes/admin/mail-queue'), 'admin') },
          { id: 'admin-audit', path: 'audit', lazy: lazyPage(() => import('./routes/admin/audit'), 'admin') },
          { id: 'admin-user-profile', path: 'users/:catalystId', lazy: lazyPage(() => import('./routes/admin/user-profile'), 'admin') },
          { id: 'admin-event', path: ':id', lazy: lazyPage(() => import('./routes/admin/event-configuration'), 'admin') },
        ],
      },
      { id: 'not-found', path: '*', lazy: lazyPage(() => import('./routes/not-found'), 'first') },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | undefined;

/** Creates the app's router (once, main.tsx). */
export function createAppRouter() {
  if (!router) {
    router = createBrowserRouter(routes);
    registerRouter(router);
  }
  return router;
}

/** The app's router, once main.tsx created it. */
export function appRouter() {
  if (!router) throw new Error('The router is created by main.tsx before the first render.');
  return router;
}
