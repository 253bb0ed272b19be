// The compagnia_contrattuale domain: hooks.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';

export default defineDomain('compagnia_contrattuale', (app) => {
  hooks(app);
});
