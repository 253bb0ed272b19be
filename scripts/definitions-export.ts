// npm run definitions:export — writes the definitions the database serves (the last deploy plus the changes applied
// live) back to schemas/ and workflows/, so that `git diff` shows exactly those changes. Usage: [-- <project root>].
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config.ts';
import { connectDatabase } from '../src/server/server.ts';
import { exportFiles } from '../src/server/definizioni/export.ts';
import { ensureTable, latestVersion, readVersion } from '../src/server/definizioni/store.ts';

const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const database = await connectDatabase(loadConfig(process.env), () => {});
try {
  await ensureTable(database.connection.db);
  const version = await readVersion(database.connection.db, await latestVersion(database.connection.db));
  if (!version) {
    console.log('No definitions version in this database yet: nothing to export.');
  } else {
    const { scritti, rimossi } = await exportFiles(root, version.files);
    for (const file of scritti) console.log(`written  ${file}`);
    for (const file of rimossi) console.log(`removed  ${file}`);
    console.log(`version ${version.n} (${version.origine}) exported: ${scritti.length} written, ${rimossi.length} removed. Commit them; the next start with these files serves the same set.`);
  }
} finally {
  await database.stop();
}
