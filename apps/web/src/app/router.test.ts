import { describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';

// The route table is read, not run: the browser router itself needs a document.
vi.mock('react-router', async (original) => ({ ...(await original<typeof import('react-router')>()), createBrowserRouter: () => ({}) }));
const { routes } = await import('./router');

function walk(list: RouteObject[], parent = ''): { id?: string; path: string }[] {
  return list.flatMap((route) => {
    const path = route.index ? parent || '/' : route.path ? `${parent.replace(/\/$/, '')}/${route.path}` : parent;
    return [{ id: route.id, path }, ...walk(route.children ?? [], path)];
  });
}

describe('the route table of spec §2.1', () => {
  const table = walk(routes);
  const pathOf = (id: string) => table.find((route) => route.id === id)?.path;

  it('defines the named routes, with the params the spec names (A-028)', () => {
    const expected: Record<string, string> = {
      home: '/',
      login: '/login',
      profile: '/profile',
      'account-activation': '/account/activation',
      register: '/register',
      'allocated-reviews': '/allocated-reviews/:page?',
      AllocatedProposals: '/allocated-proposals',
      'moderated-reviews': '/moderated-reviews/:page?',
      reviews: '/reviews/:page?',
      review: '/review/:id',
      proposals: '/proposals/:page?',
      proposal: '/proposal/:id',
      'admin-events': '/admin/events',
      'admin-users': '/admin/users',
      'admin-status': '/admin/status',
      'admin-mail': '/admin/mail',
      'admin-audit': '/admin/audit',
      'admin-user-profile': '/admin/users/:catalystId',
      'reset-requested': '/check-your-inbox',
      unsubscribe: '/unsubscribe',
      'not-found': '/*',
    };
    for (const [id, path] of Object.entries(expected)) expect(pathOf(id), id).toBe(path);
  });
});
