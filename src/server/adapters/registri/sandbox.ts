// Deterministic sandbox of the ANIA/SIVI/ATRC registries: the answer depends only on plate and vehicle type.
// Plate prefixes choose the case (documented in README, 'Registri ANIA/SIVI/ATRC'):
//   ER… result 2 with an Error list · NS… no SIVI data · NA… no ATRC data · DH… SIVI holder other than the client
//   AT… ATRC beneficiary other than client and SIVI holder · SX… claims in two of the last five years
//   SC… previous contract still running · TO… the registry does not answer (timeout) · anything else: clean certificate, client is holder and beneficiary.
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
    if (caso === 'TO') throw new RegistroNonDisponibile('Il servizio ANIA non risponde: riprova più tardi.');
    if (caso === 'ER') return { result: 2, Error: [{ descError: `Targa ${targa} non presente nella banca dati ANIA` }, { descError: 'Verificare targa e tipologia del veicolo' }] };

    const contraente = (richiesta.codiceFiscaleContraente ?? '').trim().toUpperCase() || SENZA_CONTRAENTE;
    const intestatario = caso === 'DH' || caso === 'AT' ? ALTRO_INTESTATARIO.taxCode : contraente;
    const anno = this.oggi().getFullYear();
    const annoImmatricolazione = 1950 + numero(targa, 'anno', 40);
    const sinistriIn = caso === 'SX' ? new Set([anno - 1, anno - 3]) : new Set<number>();
    const claims: RigaSinistri[] = ['01', '1C', '1M', '1P'].map((claimsType) => ({
      claimsType,
      years: Array.from({ length: 10 }, (_, i) => anno - 10 + i).map((Year) => ({
        Year,
        ClaimNumber: claimsType === '01' && sinistriIn.has(Year) ? '01' : Year < annoImmatricolazione ? '--' : '00',
      })),
    }));
    const beneficiario = caso === 'AT' ? ALTRO_BENEFICIARIO : caso === 'DH' ? ALTRO_INTESTATARIO : { taxCode: contraente, firstName: undefined, lastName: undefined };
    // The previous contract ended in the last two months; SC… plates have one still running (the ATRC check refuses them).
    const giorni = caso === 'SC' ? 30 + numero(targa, 'giorni', 60) : -(1 + numero(targa, 'giorni', 60));
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
      ResponseSivi: caso === 'NS' ? null : {
        taxCode: intestatario,
        registrationDate: `${annoImmatricolazione}-${String(1 + numero(targa, 'mese-imm', 12)).padStart(2, '0')}-01`,
        ...(richiesta.tipologia === 'C' ? { weight: 1500 + numero(targa, 'peso', 3000) } : {}),
      },
      ResponseAtrcMain: caso === 'NA' ? null : {
        contractExpirationDate: scadenza,
        beneficiaryTaxCode: beneficiario.taxCode,
        beneficiaryFirstName: beneficiario.firstName,
        beneficiaryLastName: beneficiario.lastName,
      },
    };
  }
}
