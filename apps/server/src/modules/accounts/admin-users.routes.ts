import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, paged, validationErrorBody } from '@cr/contract/common';
import { adminUserParams, adminUserRow, adminUsersQuery, userInfo } from '@cr/contract/users';
import type { UserInfoService } from './user-info.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 422: validationErrorBody };

/** Spec §7 `admin/users` (paged, 25 by default) and `admin/users/{id}`: admins only. */
export async function adminUsersRoutes(app: FastifyInstance, options: { userInfo: UserInfoService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['admin'], querystring: adminUsersQuery, response: { 200: paged(adminUserRow), ...errors } },
    },
    (request) => options.userInfo.list({ ...request.query, search: request.query.search || undefined }),
  );

  api.get(
    '/admin/users/:id',
    { config: { access: 'admin' }, schema: { tags: ['admin'], params: adminUserParams, response: { 200: userInfo, ...errors } } },
    (request) => options.userInfo.userInfoFor(request.params.id),
  );
}
