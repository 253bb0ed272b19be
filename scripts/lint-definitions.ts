// Checks schemas/ and workflows/ exactly as start-up does (shapes, cross references, permissions, workflow lint, and
// what the domains register against them: hooks, views, migrations, workflow actions) without a database. Usage: npm run lint:definitions [-- <schemas dir>]; exit code 1 names file and JSON pointer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDefinitionFiles } from '../src/server/definitions.ts';
import { DefinitionError } from '../src/shared/definitions/compile.ts';
import { lintFiles } from '../src/server/definizioni/piano.ts';
import { domains } from '../src/server/domains/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemasDir = path.resolve(process.argv[2] ?? path.join(root, 'schemas'));

try {
  // The same checks as start-up and as a live change's plan (src/server/definizioni/piano.ts).
  const { definitions } = await lintFiles(await readDefinitionFiles(schemasDir), domains);
  console.log(`definitions ok: ${definitions.resources.size} resources, ${definitions.workflows.size} workflows`);
} catch (error) {
  // A definition names file and pointer; a domain's registration names the resource.
  if (!(error instanceof Error)) throw error;
  console.error(error instanceof DefinitionError ? error.message : `domain registration: ${error.message}`);
  process.exitCode = 1;
}
