// Demo data of the fast quotation: daily-use vehicles on three of Mario Rossi's customers, and a few RCA quotations priced by the sandbox.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Definitions } from '../../../shared/definitions/types.ts';
import { ResourceRepository, type RepositoryDeps } from '../../resources/repository.ts';
import { Workflow, type WorkflowDefinition } from '../../../shared/workflow/machine.ts';
import { SUPER_ADMIN } from '../../../shared/permissions.ts';
import { computeCodiceFiscale } from '../../../shared/validators/codiceFiscale.ts';
import { seleziona, selezionePredefinita } from '../../../shared/rca/garanzie.ts';
import { richiestaVuota } from '../../../shared/rca/richiesta.ts';
import { oggiIso } from '../../../shared/dates.ts';
import { SandboxMotorInsurer } from '../../adapters/motor/sandbox.ts';
import { QuotazioniRcaService, RESOURCE } from './service.ts';
import { richiestaDaCliente } from './cliente.ts';
import { QUOTAZIONE_GUARDS } from '../../../shared/domains/quotazione/guards.ts';

// Customers of the demo seed (by surname and name) and the car each drives every day.
const VEICOLI: Array<{ cognome: string; nome: string; veicolo: { marca: string; modello: string; anno: string; targa: string } }> = [
  { cognome: 'GRECO', nome: 'FRANCESCA', veicolo: { marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'GA123BC' } },
  { cognome: 'MARINO', nome: 'FRANCESCO', veicolo: { marca: 'Volkswagen', modello: 'Golf', anno: '2021', targa: 'GF456HK' } },
  { cognome: 'RICCI', nome: 'ANDREA', veicolo: { marca: 'Toyota', modello: 'Yaris', anno: '2020', targa: 'FZ789LM' } },
];

export async function seedQuotazioniRca(db: Database, definitions: Definitions, deps: RepositoryDeps, collaboratoreId: number): Promise<number> {
  const done = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(RESOURCE)}`.execute(db);
  if (done.rows[0]!.n > 0) return 0;
  const user: AuthUser = { id: 0, email: 'seed', name: 'seed', collaboratore_id: collaboratoreId, tokenId: 0, roles: [SUPER_ADMIN], permissions: [] };
  const workflow = new Workflow(definitions.workflows.get('quotazione_auto_storica') as WorkflowDefinition, QUOTAZIONE_GUARDS);
  const storiche = new ResourceRepository(definitions.resources.get('quotazione')!, deps, undefined, workflow);
  const service = new QuotazioniRcaService({ db, ...deps }, new SandboxMotorInsurer());

  const clienti: Array<Record<string, unknown>> = [];
  for (const v of VEICOLI) {
    const cliente = (await sql<Record<string, unknown>>`SELECT * FROM cliente WHERE cognome = ${v.cognome} AND nome = ${v.nome} AND collaboratore_id = ${collaboratoreId}
      ORDER BY id LIMIT 1`.execute(db)).rows[0];
    if (!cliente) continue;
    clienti.push(cliente);
    // The vehicle lives on a historic-car quotation of the customer, as in the old system ('Teo').
    await storiche.create(db, user, {
      persona: 'f', sesso: cliente.sesso, nome: cliente.nome, cognome: cliente.cognome, email: cliente.email, telefono: '+39 333 0000000',
      cliente_id: cliente.id, collaboratore_id: collaboratoreId, quotidiano: 1, veicoli_moderni: [v.veicolo],
    });
  }

  let created = 0;
  const effetto = oggiIso();
  for (const [i, cliente] of clienti.entries()) {
    const request = richiestaDaCliente(cliente, VEICOLI[i]!.veicolo) as { fastFlowData: Record<string, unknown>; coverages: unknown };
    request.fastFlowData.effectDate = effetto;
    if (i === 1) request.coverages = seleziona(selezionePredefinita(), 'P05', 'Auto');
    if (i === 2) request.coverages = seleziona(seleziona(selezionePredefinita(), 'P14', 'Auto'), 'P52', 'Auto');
    await service.create(user, request, cliente.id as number);
    created++;
  }
  // A new client, not yet a customer: the quotation waits for confirmation.
  const nuovo = richiestaVuota(effetto) as { fastFlowData: Record<string, unknown>; addresses: unknown; contacts: unknown };
  nuovo.fastFlowData = {
    ...nuovo.fastFlowData, plate: 'GH321JK', birthdate: '1988-09-21',
    personData: { gender: 'Male', name: 'GIORGIO', surname: 'LOMBARDI', birthDate: '1988-09-21', maritalStatus: 'Married', fiscalCode: computeCodiceFiscale({ cognome: 'Lombardi', nome: 'Giorgio', dataNascita: '1988-09-21', sesso: 'M', codiceCatastale: 'F205' }) },
  };
  nuovo.addresses = [{ addressType: 'PermanentResidency', streetType: 'Corso', streetName: 'BUENOS AIRES', number: '21', cityIstat: '015146', zipCode: '20124' }];
  nuovo.contacts = [{ type: 'Email', isPrincipal: true, value: 'giorgio.lombardi@esempio.it' }];
  await service.create(user, nuovo, undefined);
  created++;
  return created;
}
