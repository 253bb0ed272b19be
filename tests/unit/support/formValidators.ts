// The browser's path in Node: the server compiles a form's schema (ajv standalone), the module is imported from a file
// and registered with the client's validator, exactly as /api/validators and loadFormValidator do.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RJSFSchema } from '@rjsf/utils';
import { compileFormModule } from '../../../src/server/validation/standalone.ts';
import { hasFormValidator, registerFormValidator } from '../../../src/client/renderer/validator.ts';

const DIR = path.join(tmpdir(), 'form-validators');

export async function precompile(...schemas: object[]): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  for (const schema of schemas as RJSFSchema[]) {
    if (hasFormValidator(schema)) continue;
    const code = compileFormModule(schema as Parameters<typeof compileFormModule>[0]);
    const file = path.join(DIR, `${createHash('sha256').update(code).digest('hex').slice(0, 32)}.mjs`);
    writeFileSync(file, code);
    const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: Parameters<typeof registerFormValidator>[1] };
    registerFormValidator(schema, module.default);
  }
}
