// npm run seed:demo — loads the demo data into the database the app uses (embedded under DATA_DIR, or DATABASE_URL).
import { openDatabase } from '../src/server/server.ts';
import { seedDemo } from '../src/server/seed/demo.ts';

const database = await openDatabase();
try {
  await seedDemo(database.connection.db, console.log);
} finally {
  await database.stop();
}
