// A scheduler instance in a process of its own, for the crash test: its job writes, says so, then never ends, and the
// test kills the process (SIGKILL) in the middle of the run.
import { sql } from 'kysely';
import { connect } from '../../../src/server/db/connection.ts';
import { Scheduler, type Job } from '../../../src/server/scheduler/scheduler.ts';

const [url, schedules, clock] = process.argv.slice(2) as [string, string, string];
const connection = connect(url, 2);
const job: Job = async ({ trx, dovuta }) => {
  await sql`INSERT INTO lavori_prova (dovuta, chi) VALUES (${dovuta}, 'figlio')`.execute(trx);
  console.log('DENTRO');
  await new Promise(() => {});
  return 'mai';
};
const scheduler = new Scheduler(connection.db, JSON.parse(schedules), new Map([['prova', job]]), { now: () => new Date(clock), instance: 'figlio', leaseMs: 60_000 });
await scheduler.tick();
