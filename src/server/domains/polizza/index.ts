// Policies and their titles (spec 002 §2.2, §2.3, §3.1-3.3): hooks of both resources, their side tables and the custom routes.
import { defineDomain } from '../../extensions.ts';
import { POLIZZA_MIGRATION } from './hooks.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';
import { register as incassi } from './incassi.ts';

export default defineDomain('polizza', (app) => {
  hooks(app);
  routes(app);
  incassi(app);
  app.extensions.migration('polizza', POLIZZA_MIGRATION);
});
