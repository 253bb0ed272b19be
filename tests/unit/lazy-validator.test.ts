// lazyValidator: compiled on the first call only, with the same answers as compileValidator.
import { describe, expect, it, vi } from 'vitest';
import { compileValidator, createAjv, lazyValidator } from '../../src/shared/validation.ts';
import type { JsonSchema } from '../../src/shared/definitions/types.ts';

const schema = { type: 'object', required: ['cap'], properties: { cap: { type: 'string', pattern: '^[0-9]{5}$' } } } as unknown as JsonSchema;

describe('lazyValidator', () => {
  it('compiles once, on the first call, and answers as compileValidator', () => {
    const ajv = createAjv();
    const compile = vi.spyOn(ajv, 'compile');
    const ajvOf = vi.fn(() => ajv);
    const validate = lazyValidator(ajvOf, schema);
    expect(ajvOf).not.toHaveBeenCalled();
    expect(compile).not.toHaveBeenCalled();
    const eager = compileValidator(createAjv(), schema);
    for (const data of [{ cap: '00100' }, { cap: '1' }, {}]) expect(validate(data)).toEqual(eager(data));
    expect(validate({ cap: '1' })).not.toBeNull();
    expect(ajvOf).toHaveBeenCalledTimes(1);
    expect(compile).toHaveBeenCalledTimes(1);
  });
});
