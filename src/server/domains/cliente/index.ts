// Customers: one record per codice fiscale (issue 29).
import { sql } from 'kysely';
import { defineDomain } from '../../extensions.ts';
import { RESOURCE, assertCfFree, holders, inScope } from './duplicati.ts';

export default defineDomain(RESOURCE, (app) => {
  // The public link and the RCA stepper reuse a customer already on file (their domains look these up by name).
  app.extensions.service('cliente.titolari', holders);
  app.extensions.service('cliente.inScope', inScope);
  app.extensions.resourceHooks(RESOURCE, {
    async beforeWrite(operation, { trx, input, before }) {
      // Only a code being set or changed is checked: records already on file as duplicates stay editable.
      if (input.cf === undefined || (operation === 'update' && String(input.cf ?? '').toUpperCase() === String(before?.cf ?? '').toUpperCase())) return;
      // Serialised per code, so two customers with the same code created at once cannot both pass.
      if (typeof input.cf === 'string' && input.cf.trim()) await sql`SELECT pg_advisory_xact_lock(hashtext(${'cliente.cf:' + input.cf.trim().toUpperCase()}))`.execute(trx);
      await assertCfFree(trx, input.cf, before ? Number(before.id) : undefined);
    },
  });
});
