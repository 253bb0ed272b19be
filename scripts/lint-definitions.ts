// Checks schemas/ and workflows/ exactly as start-up does (shapes, cross references, permissions, workflow lint)
// without a database. Usage: npm run lint:definitions [-- <schemas dir>]; exit code 1 names file and JSON pointer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from '../src/server/bootstrap.ts';
import { DefinitionError } from '../src/shared/definitions/compile.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemasDir = path.resolve(process.argv[2] ?? path.join(root, 'schemas'));

try {
  const { definitions } = await loadAll(schemasDir);
  console.log(`definitions ok: ${definitions.resources.size} resources, ${definitions.workflows.size} workflows`);
} catch (error) {
  if (!(error instanceof DefinitionError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
