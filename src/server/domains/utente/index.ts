// Users: the hooks of the generic API (password, roles, sessions).
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';

export default defineDomain('utente', (app) => {
  hooks(app);
});
