// The RCA quotation's routes (spec-fixed paths of the insurer's flow): named here once, called through the data layer
// (callRoute) with their parameters, so no screen builds a URL.
export const RCA_ROUTES = {
  quotazione: '/api/quixa/FastQuotationFlow/{id}',
  cercaCliente: '/api/search/cliente',
  nuovaQuotazione: '/api/quixa/FastQuotationFlow',
  clienteVeicolo: '/api/adapter/quixa/clienteVeicolo/FastQuotationFlow',
  proposta: '/api/quixa/Proposal',
} as const;
