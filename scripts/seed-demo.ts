// npm run seed:demo — loads the demo data into the database the app uses (embedded under DATA_DIR, or DATABASE_URL).
import { openDatabase } from '../src/server/server.ts';
import { loadConfig } from '../src/server/config.ts';
import { mediaSettings } from '../src/server/media/store.ts';
import { seedDemo } from '../src/server/seed/demo.ts';
import { domains } from '../src/server/domains/index.ts';

const config = loadConfig(process.env);
const database = await openDatabase(domains, config);
try {
  await seedDemo(database.connection.db, console.log, mediaSettings(config));
} finally {
  await database.stop();
}
