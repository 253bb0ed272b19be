// Between customers and fast-quotation requests: the request built from a customer and vehicle, the customer built from a request.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { richiestaVuota } from '../../../shared/rca/richiesta.ts';
import type { FastQuotationRequest, Gender } from '../../adapters/motor/shapes.ts';

const STREET_TYPES = ['Via', 'Corso', 'Piazza', 'Strada'] as const;
const GENDER_OF: Record<string, Gender> = { M: 'Male', F: 'Female', A: 'Juridic' };
const SESSO_OF: Record<Gender, string> = { Male: 'M', Female: 'F', Juridic: 'A' };

/** 'Via Roma' → Via + ROMA; 'Viale Europa' keeps the whole text as the street name under 'Via'. */
export function splitStreet(indirizzo: unknown): { streetType: (typeof STREET_TYPES)[number]; streetName: string } {
  const text = String(indirizzo ?? '').trim();
  const [first, ...rest] = text.split(/\s+/);
  const type = STREET_TYPES.find((t) => t.toLowerCase() === (first ?? '').toLowerCase());
  return type && rest.length ? { streetType: type, streetName: rest.join(' ').toUpperCase() } : { streetType: 'Via', streetName: text.toUpperCase() };
}

/** 'COGNOME NOME' for people, the business name for companies. */
export function labelCliente(c: { sesso?: unknown; nome?: unknown; cognome?: unknown }): string {
  if (c.sesso === 'A') return String(c.nome ?? '').trim();
  return [c.cognome, c.nome].filter((v) => typeof v === 'string' && v.trim()).join(' ').trim();
}

export function labelPersona(p: { gender?: unknown; name?: unknown; surname?: unknown } | undefined): string {
  if (!p) return '';
  return labelCliente({ sesso: SESSO_OF[p.gender as Gender] ?? 'M', nome: p.name, cognome: p.surname });
}

/** Step 2 filled from the customer and their daily-use vehicle (POST /api/adapter/quixa/clienteVeicolo/FastQuotationFlow). */
export function richiestaDaCliente(cliente: Record<string, unknown>, veicolo: { targa?: unknown } | undefined): Record<string, unknown> {
  const base = richiestaVuota() as { fastFlowData: Record<string, unknown> } & Record<string, unknown>;
  const gender = GENDER_OF[String(cliente.sesso)] ?? 'Male';
  const juridic = gender === 'Juridic';
  const street = splitStreet(cliente.residenzaIndirizzo);
  const personData: Record<string, unknown> = { gender, name: cliente.nome ?? '' };
  if (juridic) {
    if (cliente.piva) personData.vatNumber = cliente.piva;
  } else {
    for (const [to, from] of [['surname', 'cognome'], ['birthDate', 'dataNascita'], ['fiscalCode', 'cf']] as const) if (cliente[from]) personData[to] = cliente[from];
    personData.maritalStatus = 'Unknown';
  }
  return {
    ...base,
    fastFlowData: {
      ...base.fastFlowData,
      plate: String(veicolo?.targa ?? '').toUpperCase().replace(/[^A-Z0-9]/g, ''),
      ...(!juridic && cliente.dataNascita ? { birthdate: cliente.dataNascita } : {}),
      personData,
    },
    addresses: [{
      addressType: juridic ? 'CompanyHeadquarters' : 'PermanentResidency',
      ...street,
      number: cliente.residenzaCivico ?? '',
      ...(cliente.residenza_comune_id ? { cityIstat: cliente.residenza_comune_id } : {}),
      zipCode: cliente.residenzaCap ?? '',
    }],
    contacts: [{ type: 'Email', isPrincipal: true, value: cliente.email ?? '' }],
  };
}

/** The customer record a new client of step 2 becomes on confirmation, in the customer resource's own fields. */
export async function clienteDaRichiesta(db: Database, request: FastQuotationRequest, collaboratoreId: number | null): Promise<Record<string, unknown>> {
  const p = request.fastFlowData.personData;
  const juridic = p.gender === 'Juridic';
  const address = request.addresses.find((a) => a.addressType === 'PermanentResidency' || a.addressType === 'CompanyHeadquarters') ?? request.addresses[0];
  const email = (request.contacts ?? []).find((c) => c.isPrincipal)?.value ?? request.contacts?.[0]?.value;
  const prov = address?.cityIstat
    ? (await sql<{ sigla: string }>`SELECT sigla_provincia AS sigla FROM ref_comune WHERE codice = ${address.cityIstat}`.execute(db)).rows[0]?.sigla
    : undefined;
  const record: Record<string, unknown> = {
    tipo: juridic ? 'CORPORATE' : 'RETAIL',
    sesso: SESSO_OF[p.gender],
    nome: p.name,
    ...(juridic ? { piva: p.vatNumber } : { cognome: p.surname, dataNascita: p.birthDate ?? request.fastFlowData.birthdate, cf: p.fiscalCode }),
    ...(address ? {
      residenzaIndirizzo: `${address.streetType} ${address.streetName}`.toUpperCase(),
      residenzaCivico: address.number, residenza_comune_id: address.cityIstat, residenzaCap: address.zipCode,
      ...(prov ? { residenzaProv: prov } : {}),
    } : {}),
    ...(email ? { email } : {}),
    ...(collaboratoreId ? { collaboratore_id: collaboratoreId } : {}),
  };
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
