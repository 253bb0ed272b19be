// Historic-car models through the generic API: range checks before a write, colour masking on every record returned.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../errors.ts';
import { RESOURCE, presentModel, rangeErrors } from './rules.ts';

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks(RESOURCE, {
    async beforeWrite(operation, { input, before }) {
      // An update sends only the changed fields: the range is judged on the record as it will be stored.
      const record = operation === 'update' ? { ...before, ...input } : input;
      const errors = rangeErrors(record);
      if (Object.keys(errors).length) throw invalid(errors);
    },
    presentRecord: presentModel,
  });
}
