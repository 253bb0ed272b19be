// Suppliers (issue 4): hooks and routes.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';

export default defineDomain('compagnia', (app) => {
  hooks(app);
  routes(app);
});
