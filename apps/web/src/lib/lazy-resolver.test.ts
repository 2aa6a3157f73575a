import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-resolver';

const schema = z.object({ name: z.string().min(3, 'too short') });
const options = { fields: {}, shouldUseNativeValidation: false } as never;

// Issue 30 item 5: forms fetch their schema on the first check; they must judge as the eager resolver does.
describe('lazyZodResolver', () => {
  it('answers what zodResolver answers, for valid and invalid values', async () => {
    const lazy = lazyZodResolver<{ name: string }>(async () => schema);
    const eager = zodResolver(schema);
    for (const values of [{ name: 'ok name' }, { name: 'x' }]) {
      expect(JSON.stringify(await lazy(values, undefined, options))).toBe(JSON.stringify(await eager(values, undefined, options)));
    }
    expect((await lazy({ name: 'x' }, undefined, options)).errors.name?.message).toBe('too short');
  });

  it('loads the schema once, and again only after a failed load', async () => {
    const load = vi.fn<() => Promise<typeof schema>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(schema);
    const resolver = lazyZodResolver<{ name: string }>(load);
    await expect(resolver({ name: 'abc' }, undefined, options)).rejects.toThrow('offline');
    await resolver({ name: 'abc' }, undefined, options);
    await resolver({ name: 'x' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('lazyZodResolver with an invalid start (issue 30 item 5)', () => {
  it('answers invalid for the untouched start without loading, then judges every later value with the schema', async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<{ name: string }>(load, { invalidStart: { name: '' } });
    const start = await resolver({ name: '' }, undefined, options);
    expect(Object.keys(start.errors)).toEqual(['root']);
    expect(start.errors.name).toBeUndefined();
    expect(await resolver({ name: '' }, undefined, options)).toEqual(start);
    expect(load).not.toHaveBeenCalled();
    // The first change fetches the schema; from then on even the start is judged by it (its message shows).
    expect((await resolver({ name: 'a good name' }, undefined, options)).errors).toEqual({});
    expect((await resolver({ name: '' }, undefined, options)).errors.name?.message).toBe('too short');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('judges a first check of changed values with the schema (the form may not have validated on mount)', async () => {
    const resolver = lazyZodResolver<{ name: string }>(async () => schema, { invalidStart: { name: '' } });
    expect((await resolver({ name: 'x' }, undefined, options)).errors.name?.message).toBe('too short');
  });
});
