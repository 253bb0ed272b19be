// Effective date of a historic-car policy: cover starts at 24:00 of the day the premium was received (spec 001 §9), never earlier.
import { dataItaliana, isCalendarDate, oggiIso } from '../../../shared/dates.ts';
import { invalid } from '../../errors.ts';
import { formatMessages } from '../../../shared/validation-messages.ts';

/** 'Salva Emissione' without the payment receipt day: the issue could not start from it. */
export const DATA_INCASSO_OBBLIGATORIA = 'Indicare la data di incasso del premio: la polizza decorre dalle ore 24:00 di quel giorno.';


/** The same calendar day one year later (29 February → 28 February). */
export function unAnnoDopo(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y + 1, m - 1, d));
  if (next.getUTCMonth() !== m - 1) next.setUTCDate(0);
  return next.toISOString().slice(0, 10);
}

export interface Decorrenza {
  /** Cover from 24:00 of this day. */
  decorrenza: string;
  /** Cover until 24:00 of this day. */
  scadenza: string;
  /** The earliest allowed: the payment receipt day. */
  minima: string;
  testo: string;
}

/**
 * The requested date (query ?decorrenza=) or, when absent, the later of the quotation's decorrenza and the payment receipt day.
 * Refused at the field that causes it: no receipt day, a receipt day in the future, a date before the receipt day.
 */
export function calcolaDecorrenza(record: { data_incasso?: unknown; decorrenza?: unknown }, richiesta: unknown, oggi = oggiIso()): Decorrenza {
  const incasso = typeof record.data_incasso === 'string' && record.data_incasso ? record.data_incasso : undefined;
  if (!incasso) throw invalid({ data_incasso: ["Indicare la data di incasso del premio (Salva Emissione): la polizza decorre dalle ore 24:00 di quel giorno."] });
  if (incasso > oggi) throw invalid({ data_incasso: ['La data di incasso del premio non può essere futura.'] });
  let decorrenza: string;
  if (richiesta !== undefined && richiesta !== null && richiesta !== '') {
    if (!isCalendarDate(richiesta)) throw invalid({ decorrenza: [formatMessages.date] });
    if (richiesta < incasso) {
      throw invalid({ decorrenza: [`La polizza decorre dalle ore 24:00 del giorno di incasso del premio: la decorrenza non può essere precedente al ${dataItaliana(incasso)}.`] });
    }
    decorrenza = richiesta;
  } else {
    const desiderata = isCalendarDate(record.decorrenza) ? record.decorrenza : incasso;
    decorrenza = desiderata > incasso ? desiderata : incasso;
  }
  const scadenza = unAnnoDopo(decorrenza);
  return { decorrenza, scadenza, minima: incasso, testo: `Dalle ore 24:00 del ${dataItaliana(decorrenza)} alle ore 24:00 del ${dataItaliana(scadenza)}` };
}
