// Payment of a title: date, amount (the title's premium), payment type and who; the history row, the title and the policy's status in one transaction.
import type { preHandlerHookHandler } from 'fastify';
import { sql } from 'kysely';
import type { AuthUser } from '../../auth/user.ts';
import { HttpError, invalid, notFound } from '../../errors.ts';
import { formatEuro } from '../../../shared/money.ts';
import { centesimi, euro } from '../../../shared/premi.ts';
import type { FieldErrors } from '../../../shared/validation.ts';
import { aggiornaStatoPolizza, oggi, type Archivi, type Trx } from './titoli.ts';
import { isCalendarDate } from '../../../shared/dates.ts';
import { hasPermission } from '../../../shared/permissions.ts';

/** Registering a payment is the cashier's (ruoli.json: "Registra gli incassi dei titoli"), not whoever sees the policy. */
export const PERMESSO_PAGAMENTI = 'gestione_incassi';
export const pagamentoNonConsentito = () => new HttpError(403, 'Non hai i permessi per registrare pagamenti.');

/** preHandler of every route that registers payments. */
export const puoRegistrarePagamenti: preHandlerHookHandler = (request, _reply, done) =>
  done(hasPermission(PERMESSO_PAGAMENTI, request.user) ? undefined : pagamentoNonConsentito());

/** Runs inside the caller's transaction; `titoli` applies the row scope (a title one may not see answers 404). */
export async function registraPagamento(trx: Trx, repos: Archivi, user: AuthUser, id: number, body: Record<string, unknown>): Promise<void> {
  // Checked here too, so no route that pays (one title, several, the cashier's desk) can forget it.
  if (!hasPermission(PERMESSO_PAGAMENTI, user)) throw pagamentoNonConsentito();
  const { titoli } = repos;
  const visible = await titoli.get(trx, user, id);
  // The policy row first: an edit of the policy and a payment of its titles never interleave.
  await sql`SELECT id FROM polizza WHERE id = ${visible.polizza_id as number} FOR UPDATE`.execute(trx);
  const titolo = (await sql<Record<string, unknown>>`SELECT * FROM titolo WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0];
  if (!titolo) throw notFound('Titolo', false);
  if (titolo.saldato) throw new HttpError(409, 'Il titolo è già pagato.');
  const errors: FieldErrors = {};
  const data = body.data_pagamento ?? body.data;
  const today = oggi();
  if (!isCalendarDate(data)) errors.data_pagamento = ['Data del pagamento obbligatoria (GG/MM/AAAA).'];
  else if (data > today) errors.data_pagamento = ['La data del pagamento non può essere futura.'];
  const tipo = body.tipo_pagamento;
  const tipi = (await sql<{ codice: string }>`SELECT codice FROM ref_tipo_pagamento`.execute(trx)).rows.map((r) => r.codice);
  if (typeof tipo !== 'string' || !tipi.includes(tipo)) errors.tipo_pagamento = ['Tipo di pagamento non valido.'];
  const rawImporto = body.importo ?? body.importo_pagato;
  const importo = typeof rawImporto === 'number' || (typeof rawImporto === 'string' && /^\d+([.,]\d{1,2})?$/.test(rawImporto)) ? centesimi(rawImporto) : NaN;
  const premio = centesimi(titolo.premio as number);
  if (!Number.isFinite(importo)) errors.importo = ['Importo obbligatorio.'];
  else if (importo !== premio) errors.importo = [`L'importo deve essere uguale al premio del titolo: ${formatEuro(euro(premio))}.`];
  if (Object.keys(errors).length) throw invalid(errors);
  await sql`INSERT INTO titolo_movimento (titolo_id, tipo, data, importo, tipo_pagamento, user_id, user_name)
    VALUES (${id}, 'PAGAMENTO', ${data as string}, ${euro(importo)}, ${tipo as string}, ${user.id || null}, ${user.name})`.execute(trx);
  await titoli.writeOnBehalf(trx, user, titolo, {
    saldato: true, stato: 'PAGATO', data_ultimo_stato: today, data_pagamento: data as string,
    importo_pagato: euro(importo), tipo_pagamento: tipo as string, pagato_da: user.name,
  });
  await aggiornaStatoPolizza(trx, repos.polizze, user, Number(titolo.polizza_id));
}
