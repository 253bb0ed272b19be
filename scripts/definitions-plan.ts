// npm run definitions:plan — what a start (a deploy) with the definitions on disk would do to the database, without
// writing anything: the lint, each statement with the rows it touches, every refusal with its first rows, and the
// changes made live since the last deploy that these files would replace. Exit code 1 when the start would be refused.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config.ts';
import { connectDatabase } from '../src/server/server.ts';
import { readDefinitionFiles } from '../src/server/definitions.ts';
import { planChange } from '../src/server/definizioni/piano.ts';
import { ensureTable, latestVersion, readVersion } from '../src/server/definizioni/store.ts';
import { domains } from '../src/server/domains/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = loadConfig(process.env);
const disk = await readDefinitionFiles(path.resolve(config.SCHEMAS_DIR ?? path.join(root, 'schemas')));
const database = await connectDatabase(config, () => {});
try {
  const db = database.connection.db;
  await ensureTable(db);
  const latest = await readVersion(db, await latestVersion(db));
  const piano = await planChange(db, domains, { files: latest?.files ?? {}, versione: latest?.n ?? 0 }, disk);
  console.log(latest ? `Against version ${latest.n} (${latest.origine}) in the database.` : 'The database has no definitions version yet: everything is new.');
  for (const d of piano.differenze) console.log(`${d.tipo.padEnd(10)} ${d.file}${d.modifiche.length ? `: ${d.modifiche.map((m) => m.percorso || '/').join(', ')}` : ''}`);
  for (const e of piano.lint.errori) console.log(`lint error ${e.file}#${e.pointer}: ${e.messaggio}`);
  for (const s of piano.istruzioni) console.log(`${String(s.righe).padStart(9)} rows  ${s.sql.replace(/\s+/g, ' ')}`);
  for (const r of piano.rifiuti) console.log(`refused    ${r.file}#${r.pointer}: ${r.messaggio}${r.righe.length ? ` (first rows: ${JSON.stringify(r.righe)})` : ''}`);
  console.log(!piano.lint.ok || piano.rifiuti.length ? 'The start would be refused: nothing was written.' : `${piano.istruzioni.length} statements; nothing was written.`);
  if (!piano.lint.ok || piano.rifiuti.length) process.exitCode = 1;
} finally {
  await database.stop();
}
