// Deterministic sandbox of the motor insurer: prices from category, age, province, bonus-malus, coverages and promotion.
import { createHash } from 'node:crypto';
import { CATALOGO, garanzia, gruppo, selezionate } from '../../../shared/rca/garanzie.ts';
import {
  InsurerError, type CallContext, type CoverageQuote, type FastQuotationRequest, type MotorInsurer, type ProposalRequest,
  type ProposalResponse, type SimulationResponse,
} from './shapes.ts';

/** Plates that make the sandbox answer the declared special cases (tests and demos trigger them). */
export const SANDBOX_PLATES = {
  nonDisponibile: 'ND000ND',
  errore: 'ER000ER',
  timeout: 'TO000TO',
} as const;

// Yearly base premium per coverage, in cents.
const BASE: Record<string, number> = {
  P01: 38000, P03: 4200, P04: 9800, P05: 3500, P14: 32000, P25: 5600, P32: 4800, P50: 1500,
  P51: 7400, P52: 1900, P53: 3900, P49: 2500, P13: 2900, P40: 1200, P30: 3300, P42: 900,
};
const CATEGORY_FACTOR: Record<string, number> = { Auto: 1, MotoLess50cc: 0.45, MotoMore50cc: 0.8 };
// Province = first three digits of the ISTAT municipality code.
const HIGH_RISK = new Set(['063', '061', '065', '058', '072', '082', '087', '080']);
const MEDIUM_RISK = new Set(['015', '001', '010', '048', '037', '027', '023', '092']);
const LIMIT_FACTOR: Record<number, number> = { 6000000: 1, 12000000: 1.08, 18000000: 1.14, 25000000: 1.2 };
const PACK_DISCOUNT = 0.95;
const DELAY_FACTOR = 1.03;
const BLACKBOX_FACTOR = 0.9;
const VALIDITY_DAYS = 30;

export function zoneFactor(cityIstat: string | undefined): number {
  const provincia = (cityIstat ?? '').padStart(6, '0').slice(0, 3);
  return HIGH_RISK.has(provincia) ? 1.35 : MEDIUM_RISK.has(provincia) ? 1.1 : 0.95;
}

export function ageFactor(age: number): number {
  if (age <= 25) return 1.6;
  if (age <= 35) return 1.15;
  if (age <= 60) return 1;
  if (age <= 75) return 1.1;
  return 1.3;
}

/** Bonus-malus class 1 (best) to 18 (worst). */
export function bonusMalusFactor(classe: number): number {
  return 0.6 + (classe - 1) * 0.07;
}

export function ageAt(birth: string, on: Date): number {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  let age = on.getUTCFullYear() - y;
  if (on.getUTCMonth() + 1 < m || (on.getUTCMonth() + 1 === m && on.getUTCDate() < d)) age--;
  return age;
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const euro = (cents: number) => Math.round(cents) / 100;
const digits = (key: string, n: number) => String(BigInt(`0x${createHash('sha256').update(key).digest('hex').slice(0, 15)}`)).padStart(n, '0').slice(-n);

export class SandboxMotorInsurer implements MotorInsurer {
  async fastQuotation(request: FastQuotationRequest, ctx: CallContext): Promise<SimulationResponse> {
    const data = request.fastFlowData;
    const plate = data.plate.toUpperCase();
    if (plate === SANDBOX_PLATES.errore) {
      throw new InsurerError('Errore della compagnia: impossibile completare la quotazione.', [
        'VEH-404: targa non presente nella banca dati ANIA.',
        'Il servizio di quotazione ha risposto con errore 500.',
      ]);
    }
    if (plate === SANDBOX_PLATES.timeout) {
      throw new InsurerError('La compagnia non ha risposto in tempo. Riprova più tardi.', ['Timeout dopo 15 secondi.'], 'timeout');
    }
    const commonData = {
      simulationNumber: `SIM${digits(ctx.idempotencyKey, 10)}`,
      quotationType: 'FastQuotation',
      validityDate: data.effectDate,
      simulationEndDate: isoDate(new Date(ctx.today.getTime() + VALIDITY_DAYS * 86400000)),
    };
    const notAvailable = (reason: string): SimulationResponse => ({
      simulation: { commonData, quotation: { totalPrice: null, totalPriceDelay: null, quotationStatus: 'NotAvailable', reason, convention: data.convention, promoApplied: false, coverages: [] } },
    });
    if (plate === SANDBOX_PLATES.nonDisponibile) return notAvailable('Tariffa non applicabile al veicolo indicato.');
    const birth = data.birthdate ?? data.personData.birthDate;
    const age = birth ? ageAt(birth, new Date(`${data.effectDate}T00:00:00Z`)) : undefined;
    if (age !== undefined && age < 18) return notAvailable('Tariffa non applicabile: il contraente deve avere almeno 18 anni.');
    if (age !== undefined && age > 90) return notAvailable('Tariffa non applicabile oltre i 90 anni di età.');
    if (data.vehicleCategory === 'MotoMore50cc' && age !== undefined && age < 21) {
      return notAvailable('Tariffa non applicabile: per le moto oltre 50cc servono almeno 21 anni.');
    }

    const residence = request.addresses.find((a) => a.addressType === 'PermanentResidency' || a.addressType === 'CompanyHeadquarters') ?? request.addresses[0];
    const zone = zoneFactor(residence?.cityIstat);
    const category = CATEGORY_FACTOR[data.vehicleCategory] ?? 1;
    const person = age === undefined ? 1 : ageFactor(age);
    const bm = bonusMalusFactor(data.bonusMalus ?? (data.insuranceSituation === 'NewCustomer' ? 14 : 10));
    // Promotions apply only to customers coming with a risk certificate (the note of spec 002 §2.4).
    const promo = CATALOGO.promozioni.find((p) => p.code === data.convention);
    const promoApplied = Boolean(promo && promo.sconto > 0 && data.insuranceSituation === 'AlreadyInsuredATR');
    const discount = promoApplied ? 1 - promo!.sconto / 100 : 1;

    const lines = selezionate(request.coverages).map((c) => {
      const g = garanzia(c.code)!;
      let cents = (BASE[c.code] ?? 1000) * category * zone * discount;
      if (c.code === 'P01') cents *= bm * person * (LIMIT_FACTOR[c.value ?? 6000000] ?? 1) * (c.coInsurance ? 0.97 : 1);
      else if (c.code === 'P04' || c.code === 'P03') cents *= zone; // theft and fire weigh the province twice
      const price = Math.round(cents);
      const blackbox = c.code === 'P01' && gruppo(data.vehicleCategory) === 'Auto' ? Math.round(price * BLACKBOX_FACTOR) : price;
      return { g, price, blackbox };
    });
    const packs = new Map<string, number>();
    for (const l of lines) if (l.g.PackageCode) packs.set(l.g.PackageCode, (packs.get(l.g.PackageCode) ?? 0) + l.price);
    const coverages: CoverageQuote[] = lines.map(({ g, price, blackbox }) => ({
      code: g.code,
      description: g.description,
      price: euro(price),
      priceDelay: euro(price * DELAY_FACTOR),
      priceBlackbox: euro(blackbox),
      priceBlackboxDelay: euro(blackbox * DELAY_FACTOR),
      packCode: g.PackageCode || null,
      packPrice: g.PackageCode ? euro(packs.get(g.PackageCode)! * PACK_DISCOUNT) : null,
      packDescription: g.PackageCode ? CATALOGO.pacchetti[g.PackageCode] ?? null : null,
    }));
    const total = lines.reduce((s, l) => s + l.price, 0);
    const totalDelay = lines.reduce((s, l) => s + Math.round(l.price * DELAY_FACTOR), 0);
    return {
      simulation: {
        commonData,
        quotation: { totalPrice: euro(total), totalPriceDelay: euro(totalDelay), quotationStatus: 'Quoted', convention: data.convention, promoApplied, coverages },
      },
    };
  }

  async proposal(request: ProposalRequest, ctx: CallContext): Promise<ProposalResponse> {
    return {
      proposalNumber: `PRP${digits(ctx.idempotencyKey, 10)}`,
      quotationNumber: request.proposalData.quotationNumber,
      status: 'Sent',
      // Same key, same answer: the time is derived from the key's day, not from the clock of a retry.
      sentAt: ctx.today.toISOString(),
      mailSent: request.proposalData.sendMailToClient,
    };
  }
}
