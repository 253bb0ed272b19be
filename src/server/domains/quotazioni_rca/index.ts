// Motor-liability fast quotation (spec 002 §2.4, §2.5, §7.2, §7.3): list filter hook and the quotation routes.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';
import { register as routes } from './routes.ts';

export default defineDomain('quotazioni_rca', (app) => {
  hooks(app);
  routes(app);
}, ['quotazione']);
