import { describe, expect, it } from 'vitest';
import { ApiError, errorFromBody, isApiError } from './api-error';
import { fieldLabel } from './i18n';

const noLabel = () => undefined;

describe('errorFromBody (spec §7)', () => {
  it("takes the message from the body's message field first (A-120)", () => {
    const error = errorFromBody(
      409,
      'Conflict',
      { message: 'Catalyst ID taken', detail: [{ loc: ['body'], msg: 'ignored', type: 'x' }] },
      noLabel,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('Catalyst ID taken');
    expect(error.serverMessage).toBe('Catalyst ID taken');
  });

  it("falls back to the detail items' msg when there is no message (A-120, A-121)", () => {
    const detail = [
      { loc: ['body', 'a'], msg: 'first problem', type: 'x' },
      { loc: ['body', 'b'], msg: 'second problem', type: 'x' },
    ];
    const error = errorFromBody(422, 'Unprocessable Entity', { message: '', detail }, noLabel);
    expect(error.status).toBe(422);
    expect(error.message).toBe('first problem\nsecond problem');
    expect(error.serverMessage).toBe('first problem\nsecond problem');
    expect(error.detail).toEqual(detail);
  });

  it('prefixes each validation message with the translated field label where one exists (A-122)', () => {
    const error = errorFromBody(
      422,
      'Unprocessable Entity',
      {
        detail: [
          { loc: ['body', 'new_user', 'password'], msg: 'too short', type: 'x' },
          { loc: ['body', 'new_user', 'no_such_field'], msg: 'bad', type: 'x' },
          { loc: ['body', 'items', 0], msg: 'no label either', type: 'x' },
          { loc: ['body', 'new_user', 'catalyst_id', 3], msg: 'wrong', type: 'x' },
        ],
      },
      fieldLabel,
    );
    expect(error.message).toBe('Password: too short\nbad\nno label either\nCatalyst ID: wrong');
  });

  it('ignores detail items without msg and uses a string detail as the message (A-120)', () => {
    const onlyJunk = errorFromBody(400, 'Bad Request', { detail: [null, 'text', { loc: ['x'] }] }, noLabel);
    expect(onlyJunk.message).toBe('Bad Request');
    expect(onlyJunk.serverMessage).toBeUndefined();
    const mixed = errorFromBody(400, 'Bad Request', { detail: [{ loc: ['x'] }, { loc: [], msg: 'kept', type: 't' }] }, noLabel);
    expect(mixed.message).toBe('kept');
    expect(mixed.detail).toHaveLength(1);
    const text = errorFromBody(404, 'Not Found', { detail: 'Event not found' }, noLabel);
    expect(text.message).toBe('Event not found');
    expect(text.serverMessage).toBe('Event not found');
  });

  it('falls back to the status text, with no server message, when the body has neither (A-120, A-125)', () => {
    for (const body of [undefined, null, 'plain text', { other: 1 }, { message: 42 }, { detail: [] }]) {
      const error = errorFromBody(503, 'Service Unavailable', body, noLabel);
      expect(error.message).toBe('Service Unavailable');
      expect(error.serverMessage).toBeUndefined();
      expect(error.status).toBe(503);
    }
    expect(errorFromBody(500, '', undefined, noLabel).message).toBe('HTTP 500');
  });

  it('recognises its own errors only (A-120)', () => {
    expect(isApiError(new ApiError(400, 'x', undefined))).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError({ status: 400, message: 'x' })).toBe(false);
  });
});
