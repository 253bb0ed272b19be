// The historic-car model domain: hooks of the generic API and the import and look-up routes.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';

export default defineDomain('autostoriche', (app) => {
  hooks(app);
  routes(app);
});
