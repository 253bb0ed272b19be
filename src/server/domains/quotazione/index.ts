// Historic-car quotations (spec 001): hooks, side tables, the machine's guards, routes, the public link, documents and signature, direct issue, registers.
import { CONTRATTO_EMESSO, defineDomain } from '../../extensions.ts';
import { QUOTAZIONE_GUARDS, QUOTAZIONE_MACHINE } from '../../../shared/domains/quotazione/guards.ts';
import { QUOTAZIONE_MIGRATION } from './hooks.ts';
import { PUBBLICO_TABLES } from './pubblico.ts';
import { VEICOLI_MIGRATION } from './veicoli.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';
import { register as pubblico } from './pubblico.ts';
import { register as documenti, storeIssuedContract } from './documenti.ts';
import { register as diretta } from './diretta.ts';
import { register as registri } from './registri.ts';

export default defineDomain('quotazione', (app) => {
  hooks(app);
  routes(app);
  pubblico(app);
  documenti(app);
  diretta(app);
  registri(app);
  app.extensions.migration('quotazione', [...QUOTAZIONE_MIGRATION, ...VEICOLI_MIGRATION, ...PUBBLICO_TABLES]);
  app.extensions.workflowGuards(QUOTAZIONE_MACHINE, QUOTAZIONE_GUARDS);
  // The issue (polizza_auto_storica) leaves the contract to sign, built here from the quotation.
  app.extensions.service(CONTRATTO_EMESSO, storeIssuedContract);
}, ['riferimenti']);
