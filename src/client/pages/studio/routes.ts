// The live definitions' routes, named once (called through the data layer).
export const STUDIO_ROUTES = {
  definizioni: '/api/definizioni',
  piano: '/api/definizioni/piano',
  anteprima: '/api/definizioni/anteprima',
  applica: '/api/definizioni/applica',
  versioni: '/api/definizioni/versioni',
  ripristina: '/api/definizioni/versioni/{n}/ripristina',
} as const;
