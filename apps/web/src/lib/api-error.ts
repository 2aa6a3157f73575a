import type { ValidationErrorItem } from '@cr/contract/common';

/** A failed call: its status and the message from the body's `message`, else its `detail`, else the status text. */
export class ApiError extends Error {
  /** Seconds the server asked to wait before asking again (its Retry-After), when it said. */
  retryAfter: number | undefined = undefined;

  constructor(
    readonly status: number,
    message: string,
    /** The server's own message, when it sent one (toasts prefer it to their fixed text, spec §8). */
    readonly serverMessage: string | undefined,
    readonly detail: ValidationErrorItem[] = [],
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Builds the error of spec §7 from a response body (already parsed or undefined) and a status. */
export function errorFromBody(
  status: number,
  statusText: string,
  body: unknown,
  labelFor: (loc: (string | number)[]) => string | undefined,
): ApiError {
  const record = (body && typeof body === 'object' ? body : {}) as { message?: unknown; detail?: unknown };
  if (typeof record.message === 'string' && record.message) return new ApiError(status, record.message, record.message);
  if (Array.isArray(record.detail)) {
    const items = record.detail.filter((item): item is ValidationErrorItem => !!item && typeof item === 'object' && 'msg' in item);
    const text = items
      .map((item) => {
        const label = labelFor(item.loc ?? []);
        return label ? `${label}: ${item.msg}` : item.msg;
      })
      .join('\n');
    if (text) return new ApiError(status, text, text, items);
  }
  if (typeof record.detail === 'string' && record.detail) return new ApiError(status, record.detail, record.detail);
  return new ApiError(status, statusText || `HTTP ${status}`, undefined);
}
