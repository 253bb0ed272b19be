// Deterministic sandbox of the ANIA/SIVI/ATRC registries: the answer depends only on plate and vehicle type.
// Plate prefixes choose the case (documented in docs/features.md, 'Registry data'):
//   ZE… result 2 with an Error list · ZS… no SIVI data · ZA… no ATRC data · ZD… SIVI holder other than the client
//   ZB… ATRC beneficiary other than client and SIVI holder · ZC… claims in two of the last five years
//   ZR… previous contract still running · ZT… the registry does not answer (timeout) · anything else: clean certificate, client is holder and beneficiary.
import { createHash } from 'node:crypto';
import type { DatiRegistro, RigaSinistri } from '../../../shared/registri.ts';
import { RegistroNonDisponibile, type RegistriAdapter, type RichiestaRegistro } from './types.ts';

export const ALTRO_INTESTATARIO = { taxCode: 'BNCLGU60C12F205K', firstName: 'LUIGI', lastName: 'BIANCHI' };
export const ALTRO_BENEFICIARIO = { taxCode: 'VRDGPP55M10L219E', firstName: 'GIUSEPPE', lastName: 'VERDI' };
const SENZA_CONTRAENTE = 'RSSMRA70A01H501S';

function numero(targa: string, salt: string, modulo: number): number {
  return createHash('sha256').update(`${salt}:${targa}`).digest().readUInt32BE(0) % modulo;
}

export class SandboxRegistri implements RegistriAdapter {
  constructor(private readonly oggi: () => Date = () => new Date()) {}

  async interroga(richiesta: RichiestaRegistro): Promise<DatiRegistro> {
    const targa = richiesta.targa.trim().toUpperCase();
    const caso = targa.slice(0, 2);
    if (caso === 'ZT') throw new RegistroNonDisponibile('Il servizio ANIA non risponde: riprova più tardi.');
    if (caso === 'ZE') return { result: 2, Error: [{ descError: `Targa ${targa} non presente nella banca dati ANIA` }, { descError: 'Verificare targa e tipologia del veicolo' }] };

    const contraente = (richiesta.codiceFiscaleContraente ?? '').trim().toUpperCase() || SENZA_CONTRAENTE;
    const intestatario = caso === 'ZD' || caso === 'ZB' ? ALTRO_INTESTATARIO.taxCode : contraente;
    const anno = this.oggi().getFullYear();
    const annoImmatricolazione = 1950 + numero(targa, 'anno', 40);
    const sinistriIn = caso === 'ZC' ? new Set([anno - 1, anno - 3]) : new Set<number>();
    const claims: RigaSinistri[] = ['01', '1C', '1M', '1P'].map((claimsType) => ({
      claimsType,
      years: Array.from({ length: 10 }, (_, i) => anno - 10 + i).map((Year) => ({
        Year,
        ClaimNumber: claimsType === '01' && sinistriIn.has(Year) ? '01' : Year < annoImmatricolazione ? '--' : '00',
      })),
    }));
    const beneficiario = caso === 'ZB' ? ALTRO_BENEFICIARIO : caso === 'ZD' ? ALTRO_INTESTATARIO : { taxCode: contraente, firstName: undefined, lastName: undefined };
    // The previous contract ended in the last two months; ZR… plates have one still running (the ATRC check refuses them).
    const giorni = caso === 'ZR' ? 30 + numero(targa, 'giorni', 60) : -(1 + numero(targa, 'giorni', 60));
    const scadenza = new Date(this.oggi().getTime() + giorni * 86_400_000).toISOString().slice(0, 10);
    return {
      result: 0,
      ResponseAnia: {
        updatesReceptionDate: `${anno}-01-15`,
        holder: { taxCode: intestatario, ...(intestatario === ALTRO_INTESTATARIO.taxCode ? { firstName: ALTRO_INTESTATARIO.firstName, lastName: ALTRO_INTESTATARIO.lastName } : {}) },
        beneficiary: beneficiario,
        contractExpirationDate: scadenza,
        tariff: String(1 + numero(targa, 'tariffa', 3)),
        deductibleAmount: 0,
        originalCompanyCategory: String(1 + numero(targa, 'classe', 14)),
        assignedCompanyCategory: String(1 + numero(targa, 'classe', 14)),
        originalRiskCategory: String(1 + numero(targa, 'cu', 14)),
        riskCategory: String(1 + numero(targa, 'cu', 14)),
        claims,
      },
      ResponseSivi: caso === 'ZS' ? null : {
        taxCode: intestatario,
        registrationDate: `${annoImmatricolazione}-${String(1 + numero(targa, 'mese-imm', 12)).padStart(2, '0')}-01`,
        ...(richiesta.tipologia === 'C' ? { weight: 1500 + numero(targa, 'peso', 3000) } : {}),
      },
      ResponseAtrcMain: caso === 'ZA' ? null : {
        contractExpirationDate: scadenza,
        beneficiaryTaxCode: beneficiario.taxCode,
        beneficiaryFirstName: beneficiario.firstName,
        beneficiaryLastName: beneficiario.lastName,
      },
    };
  }
}
