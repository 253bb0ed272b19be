// Checks schemas/ and workflows/ exactly as start-up does (shapes, cross references, permissions, workflow lint, and
// what the domains register against them: hooks, views, migrations, workflow actions) without a database. Usage: npm run lint:definitions [-- <schemas dir>]; exit code 1 names file and JSON pointer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from '../src/server/bootstrap.ts';
import { DefinitionError } from '../src/shared/definitions/compile.ts';
import { collectExtensions } from '../src/server/extensions.ts';
import { domains } from '../src/server/domains/index.ts';
import { compileValidator, createAjv } from '../src/shared/validation.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemasDir = path.resolve(process.argv[2] ?? path.join(root, 'schemas'));

try {
  const { definitions } = await loadAll(schemasDir);
  await collectExtensions(definitions, domains);
  // The server compiles a resource's validator on its first write (a faster start): compile each one here, so a schema
  // ajv cannot compile (a bad pattern, say) fails this check instead of that write.
  const ajv = createAjv();
  for (const def of definitions.resources.values()) {
    try {
      compileValidator(ajv, def.schema);
    } catch (error) {
      throw new DefinitionError(`schemas/${def.name}/entity.schema.json`, '', `ajv cannot compile it: ${(error as Error).message}`);
    }
  }
  console.log(`definitions ok: ${definitions.resources.size} resources, ${definitions.workflows.size} workflows`);
} catch (error) {
  // A definition names file and pointer; a domain's registration names the resource.
  if (!(error instanceof Error)) throw error;
  console.error(error instanceof DefinitionError ? error.message : `domain registration: ${error.message}`);
  process.exitCode = 1;
}
