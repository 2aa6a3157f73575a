import { renderValidationMessage } from '@cr/contract/messages';

/** Typed errors that services throw; the error handler turns them into `{ message }` bodies. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A request whose body passed the route's schema but not a deeper check (an uploaded file): 422 with `detail`. */
export class ValidationFailure extends AppError {
  constructor(readonly detail: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(422, detail[0]?.msg ?? 'Invalid input.');
  }
}

/** A 422 for fields a service found wrong, with the message key rendered as the error handler renders a schema's. */
export function validationFailure(locs: (string | number)[][], message: string, type = 'custom'): ValidationFailure {
  return new ValidationFailure(locs.map((loc) => ({ loc, msg: renderValidationMessage(message, fieldLabel(loc)), type })));
}

/** The label a message names a field by: its last name, with spaces for underscores and a capital first letter. */
export function fieldLabel(location: (string | number)[]): string {
  const last = [...location].reverse().find((part) => typeof part === 'string');
  const name = String(last ?? 'value').replace(/_/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** What the API answers (503) while its database is away; readiness (`GET readyz`) says the same. */
export const databaseUnavailableMessage =
  'The service is temporarily unavailable: its database is not reachable. Please try again in a moment.';
/** How long a client should wait before retrying a 503 (seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Not authenticated.') => new AppError(401, message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError(403, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'Too many attempts. Please wait a few minutes and try again.', {
    'retry-after': String(retryAfterSeconds),
  });
