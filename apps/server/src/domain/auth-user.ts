/**
 * The caller a request acts for, as the services see it: who (id), with which role, in which account status, and
 * whether they must set a new password first. The HTTP layer (plugins/auth) finds it from a session or an API token;
 * the services take it as a plain value, so none of them depends on that layer (issue 45 item 11).
 */
export interface AuthUser {
  id: number;
  role: number;
  status: number;
  forceReset: boolean;
}
