// Registry data of a historic vehicle (ANIA risk certificate, SIVI, ATRC): the entitled party, the alert
// texts of spec 001 §4 and §8, the weight, and the eligibility rule of spec 001 §9, as pure functions.

export const MESSAGGI_REGISTRI = {
  siviAssente: 'non sono presenti informazioni sul SIVI',
  siviCoincide: 'il codice fiscale corrisponde a quello del contraente',
  siviDiverso: 'il codice fiscale indicato dal SIVI non corrisponde a quello del contraente',
  atrcAssente: 'non sono presenti informazioni sul ATRC (attestato di rischio)',
  atrcCoincideSivi: "il codice fiscale dell' avente diritto coincide con il contraente indicato dal sivi",
  atrcDaAttestato: "il codice fiscale dell' avente diritto è stato preso dall'attestato di rischio e non coincide con il contraente",
  contraenteAventeDiritto: "Il contraente è l'avente diritto",
} as const;

/** Tariff forms of the risk certificate (spec 001 §3). */
export const FORME_TARIFFARIE: Record<string, string> = { '1': 'Bonus malus', '2': 'Franchigia', '3': 'Premio fisso', '4': 'Chilometraggio', '5': 'Consumo' };

/** Claim types of the claims-by-year table (spec 001 §3; 2P and 2M keep the insurer's labels). */
export const TIPI_SINISTRO: Record<string, string> = {
  '01': 'Sinistri pagati con responsabilità principale',
  '1C': 'Sinistri pagati con responsabilità paritaria',
  '1M': 'di cui a cose',
  '1P': 'di cui a persone',
  '02': 'di cui misti',
  '2C': 'Sinistri pagati con responsabilità paritaria (cumulata)',
  '2P': 'di cui a cose (paritaria)',
  '2M': 'di cui a persone (paritaria)',
};

export interface Persona {
  nome?: string | null;
  cognome?: string | null;
  codice_fiscale?: string | null;
}

export interface AnnoSinistri {
  Year: number;
  /** '00' none, '--' not insured, 'NA' not available, '01'..'09' claims, anything else as given. */
  ClaimNumber: string;
}

export interface RigaSinistri {
  claimsType: string;
  years: AnnoSinistri[];
}

/** The registry answer as stored on the vehicle (the vehicle's `json`). */
export interface DatiRegistro {
  result: 0 | 1 | 2;
  Error?: Array<{ descError: string }>;
  ResponseAnia?: {
    updatesReceptionDate?: string;
    holder?: { firstName?: string; lastName?: string; taxCode?: string };
    beneficiary?: { firstName?: string; lastName?: string; taxCode?: string };
    contractExpirationDate?: string;
    tariff?: string;
    deductibleAmount?: number;
    originalCompanyCategory?: string;
    assignedCompanyCategory?: string;
    originalRiskCategory?: string;
    riskCategory?: string;
    claims?: RigaSinistri[];
  } | null;
  ResponseSivi?: { taxCode?: string; registrationDate?: string; weight?: number } | null;
  ResponseAtrcMain?: {
    contractExpirationDate?: string;
    beneficiaryTaxCode?: string;
    beneficiaryFirstName?: string;
    beneficiaryLastName?: string;
  } | null;
}

/** What the registry data writes onto a historic vehicle (spec 001 §3 field names). */
export interface CampiRegistroVeicolo {
  json: DatiRegistro;
  sivi_tax_code: string | null;
  sivi_registration_date: string | null;
  sivi_vehicle_weight: number | null;
  atrc_contract_expiration_date: string | null;
  atrc_beneficiary_tax_code: string | null;
  atrc_beneficiary_first_name: string | null;
  atrc_beneficiary_last_name: string | null;
  avente_diritto_nome: string | null;
  avente_diritto_cognome: string | null;
  avente_diritto_codice_fiscale_iva: string | null;
  alert: string | null;
  errore_registro: string | null;
  quintali?: number;
}

/** The contractor as the registries compare it: a natural person by codice fiscale, a company by VAT number. */
export function contraenteDi(quotazione: Record<string, unknown>): Persona {
  const azienda = quotazione.persona === 'g';
  return {
    nome: (azienda ? quotazione.rsoc : quotazione.nome) as string | null,
    cognome: azienda ? null : (quotazione.cognome as string | null),
    codice_fiscale: ((azienda ? quotazione.piva : quotazione.cfisc) ?? quotazione.cfisc ?? null) as string | null,
  };
}

const norm = (code?: string | null) => (code ?? '').trim().toUpperCase();

/**
 * The entitled party (avente diritto) and the vehicle's alert, from the client and the registry answer.
 * SIVI: same tax code as the client → the client is the entitled party; another one → that code, names cleared.
 * ATRC (risk certificate), when present, names the entitled party of the running contract and wins over SIVI.
 */
export function derivaAventeDiritto(contraente: Persona, dati: DatiRegistro): { avente: Persona; alert: string[] } {
  const alert: string[] = [];
  const cfContraente = norm(contraente.codice_fiscale);
  const sivi = dati.ResponseSivi && norm(dati.ResponseSivi.taxCode) ? dati.ResponseSivi : null;
  const atrc = dati.ResponseAtrcMain && norm(dati.ResponseAtrcMain.beneficiaryTaxCode) ? dati.ResponseAtrcMain : null;

  let avente: Persona = { nome: null, cognome: null, codice_fiscale: null };
  if (!sivi) {
    alert.push(MESSAGGI_REGISTRI.siviAssente);
  } else if (norm(sivi.taxCode) === cfContraente && cfContraente) {
    avente = { nome: contraente.nome ?? null, cognome: contraente.cognome ?? null, codice_fiscale: cfContraente };
    alert.push(MESSAGGI_REGISTRI.siviCoincide);
  } else {
    avente = { nome: null, cognome: null, codice_fiscale: norm(sivi.taxCode) };
    alert.push(MESSAGGI_REGISTRI.siviDiverso);
  }

  if (!atrc) {
    alert.push(MESSAGGI_REGISTRI.atrcAssente);
  } else {
    const cfAtrc = norm(atrc.beneficiaryTaxCode);
    if (cfAtrc === cfContraente) {
      avente = { nome: contraente.nome ?? null, cognome: contraente.cognome ?? null, codice_fiscale: cfContraente };
      alert.push(MESSAGGI_REGISTRI.contraenteAventeDiritto);
    } else if (sivi && cfAtrc === norm(sivi.taxCode)) {
      avente = { nome: atrc.beneficiaryFirstName ?? null, cognome: atrc.beneficiaryLastName ?? null, codice_fiscale: cfAtrc };
      alert.push(MESSAGGI_REGISTRI.atrcCoincideSivi);
    } else {
      avente = { nome: atrc.beneficiaryFirstName ?? null, cognome: atrc.beneficiaryLastName ?? null, codice_fiscale: cfAtrc };
      alert.push(MESSAGGI_REGISTRI.atrcDaAttestato);
    }
  }
  return { avente, alert };
}

/** SIVI gives the weight in hundredths of a quintal; only lorries (type C) carry quintals. */
export function quintaliDaSivi(weight: number | undefined | null, tipologiaAnia: string): number | undefined {
  if (tipologiaAnia !== 'C' || weight === undefined || weight === null || !Number.isFinite(weight) || weight <= 0) return undefined;
  return Math.round(weight) / 100;
}

/** The registry answer turned into the vehicle's fields (a result 2 keeps the old data out and says why). */
export function campiRegistro(contraente: Persona, dati: DatiRegistro, tipologiaAnia: string): CampiRegistroVeicolo {
  const errore = dati.result === 2 ? dati.Error?.[0]?.descError ?? 'Errore del registro' : null;
  const { avente, alert } = errore ? { avente: { nome: null, cognome: null, codice_fiscale: null }, alert: [] } : derivaAventeDiritto(contraente, dati);
  const quintali = errore ? undefined : quintaliDaSivi(dati.ResponseSivi?.weight, tipologiaAnia);
  return {
    json: dati,
    sivi_tax_code: norm(dati.ResponseSivi?.taxCode) || null,
    sivi_registration_date: dati.ResponseSivi?.registrationDate ?? null,
    sivi_vehicle_weight: quintali ?? null,
    atrc_contract_expiration_date: dati.ResponseAtrcMain?.contractExpirationDate ?? null,
    atrc_beneficiary_tax_code: norm(dati.ResponseAtrcMain?.beneficiaryTaxCode) || null,
    atrc_beneficiary_first_name: dati.ResponseAtrcMain?.beneficiaryFirstName ?? null,
    atrc_beneficiary_last_name: dati.ResponseAtrcMain?.beneficiaryLastName ?? null,
    avente_diritto_nome: avente.nome ?? null,
    avente_diritto_cognome: avente.cognome ?? null,
    avente_diritto_codice_fiscale_iva: avente.codice_fiscale ?? null,
    alert: errore ? null : alert.join(' - '),
    errore_registro: errore,
    ...(quintali !== undefined ? { quintali } : {}),
  };
}

const CELLA_SINISTRO = /^0[1-9]$/;

/**
 * Spec 001 §9: issuing needs a risk certificate (SIC/ATRC) with no claims in the last five years.
 * Answers the reason in Italian when the vehicle does not qualify.
 */
export function idoneitaRegistro(veicolo: { targa?: string; json?: DatiRegistro | null }, oggi: Date): { ok: true } | { ok: false; motivo: string } {
  const targa = veicolo.targa ?? '';
  const dati = veicolo.json;
  if (!dati) return { ok: false, motivo: `Dati ANIA non aggiornati per la targa ${targa}.` };
  if (dati.result === 2) return { ok: false, motivo: `Errore Verti per la targa ${targa}: ${dati.Error?.[0]?.descError ?? ''}`.trim() };
  if (!dati.ResponseAnia && !dati.ResponseAtrcMain) return { ok: false, motivo: `Nessun attestato di rischio (SIC/ATRC) per la targa ${targa}.` };
  const primoAnno = oggi.getFullYear() - 5;
  for (const riga of dati.ResponseAnia?.claims ?? []) {
    const conSinistri = riga.years.filter((y) => y.Year >= primoAnno && CELLA_SINISTRO.test(y.ClaimNumber));
    if (conSinistri.length > 0) {
      const anni = conSinistri.map((y) => y.Year).sort().join(', ');
      return { ok: false, motivo: `La targa ${targa} ha sinistri negli ultimi cinque anni (${anni}).` };
    }
  }
  return { ok: true };
}
