// The categoria_prodotto domain: hooks, routes and the pre-contract documents.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';
import { register as documenti } from './documenti.ts';

export default defineDomain('categoria_prodotto', (app) => {
  hooks(app);
  routes(app);
  documenti(app);
});
