// The policy screen's own routes beyond CRUD (spec 002 §2.3, §3.1): named here once, called through the data layer.
export const POLIZZA_ROUTES = {
  tipiPagamento: '/api/autocomplete/tipo_pagamento',
  parametriProvvigioni: '/api/polizza/parametri_provvigioni',
  prodottiInPolizza: '/api/mandato_prodotto_in_polizza/search',
} as const;
