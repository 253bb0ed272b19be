// The prodotto_assegnato domain: hooks.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';

export default defineDomain('prodotto_assegnato', (app) => {
  hooks(app);
});
