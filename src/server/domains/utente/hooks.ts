// Users: a password on create, no self-lock-out, and a changed password, changed roles or disabled account end sessions.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../errors.ts';
import { revokeUserTokens } from '../../auth/service.ts';
import { registraAccesso } from '../../storico/contesto.ts';
import { PASSWORD_BLANK } from '../../auth/passwords.ts';
import { REQUIRED_MESSAGE } from '../../../shared/validation.ts';
import { SUPER_ADMIN } from '../../../shared/permissions.ts';

/** The roles of a stored row, in a comparable order. */
function rolesOf(value: unknown): string[] {
  const roles = typeof value === 'string' ? JSON.parse(value) as unknown : value;
  return Array.isArray(roles) ? roles.map(String).sort() : [];
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('utente', {
    async beforeWrite(operation, { input, before, user }) {
      if (operation === 'create' && !input.password) throw invalid({ password: [REQUIRED_MESSAGE] });
      if (typeof input.password === 'string' && !input.password.trim()) throw invalid({ password: [PASSWORD_BLANK] });
      if (operation === 'update' && before?.id === user.id) {
        if (input.attivo === false) throw invalid({ attivo: ['Non puoi disattivare il tuo utente.'] });
        if (Array.isArray(input.ruoli) && user.roles.includes(SUPER_ADMIN) && !input.ruoli.includes(SUPER_ADMIN)) {
          throw invalid({ ruoli: ['Non puoi togliere a te stesso il ruolo di amministratore.'] });
        }
      }
    },
    async afterWrite(operation, { trx, input, before, after, user, tokenId }) {
      if (operation !== 'update' || !after) return;
      // Changed roles end the sessions too (ASVS 7.4.2): the user signs in again under the new grants.
      const rolesChanged = input.ruoli !== undefined && JSON.stringify(rolesOf(before?.ruoli)) !== JSON.stringify(rolesOf(after.ruoli));
      if (input.password || after.attivo === false || rolesChanged) {
        await revokeUserTokens(trx, after.id as number, after.id === user.id ? tokenId : undefined);
        await registraAccesso(trx, 'utente', 'sessioni_revocate', { id: after.id as number, name: String(after.name ?? '') });
      }
    },
    async beforeDelete({ before, user }) {
      if (before?.id === user.id) throw invalid({ id: ['Non puoi eliminare il tuo utente.'] });
    },
  });
}
