// The one identifier of a birth country across data, autocomplete and rules: '1' Italy (the spec's rule
// "province and municipality only when the birth country is 1"), '2' abroad without naming the country (the public
// form's Italia/Estero choice), else the country's cadastral code (Z...), which the codice fiscale itself carries.

export const NAZIONE_ITALIA = '1';
export const NAZIONE_ESTERO = '2';

export function isNazioneId(value: string): boolean {
  return typeof value === 'string' && /^(1|2|Z\d{3})$/.test(value);
}
