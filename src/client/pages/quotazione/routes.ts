// The quotation's own routes beyond CRUD (spec-fixed paths, spec 001 §2, §7, §9): named here once, called through the
// data layer (callRoute, useRoute) with their parameters, so no screen builds a URL.
export const QUOTAZIONE_ROUTES = {
  polizza: '/api/polizze_auto_storiche/{id}',
  appendici: '/api/quotazioni/{id}/appendici',
  consensi: '/api/quotazioni/{id}/consensi',
  linkCliente: '/api/quotazioni/{id}/linkCliente',
  calcolaInclusione: '/api/v1/goold/quotations/inclusion/calculate/{id}',
  anteprimaInclusione: '/api/preview_appendice_inclusione_polizza_autostoriche_verti',
  emettiInclusione: '/api/emissione_appendice_inclusione_polizza_autostoriche_verti',
  calcolaEsclusione: '/api/v1/goold/quotations/exclusion/calculate/{id}',
  anteprimaEsclusione: '/api/preview_appendice_esclusione/{id}/{targa}',
  emettiEsclusione: '/api/emissione_appendice_esclusione/{id}/{targa}',
  richiestaFirma: '/api/v1/policies/{id}/signature_request',
  inviaFirma: '/api/v1/policies/{id}/signature_request/send',
  firmatoAMano: '/api/v1/policies/{id}/signature_request/signed',
  rigeneraDocumenti: '/api/v1/goold/emissione/{id}/rigenera-documenti-emissione',
  datiAnia: '/api/veicolo_update_dati_ania/{veicolo}/{targa}/{tipologia}',
  // The historic-car catalogue the add-vehicle dialog searches.
  marche: '/api/autostoriche/marche',
  modelli: '/api/autostoriche/search',
  // The customer's personal link (no session).
  link: '/api/cliente/quotazione/{uuid}',
  linkPrimoPasso: '/api/cliente/quotazione',
  linkPasso: '/api/cliente/quotazione/{id}',
  linkDocumento: '/api/cliente/quotazione/upload/{uuid}',
  linkDocumentoRimuovi: '/api/cliente/quotazione/{uuid}/documenti/{id}',
  linkTermina: '/api/cliente/quotazione/terminaCaricamento/{uuid}',
} as const;
