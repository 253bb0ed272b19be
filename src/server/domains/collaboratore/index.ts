// Collaborator domain: the hierarchy hook and the collaborator pickers.
import { defineDomain } from '../../extensions.ts';
import { register as hooks } from './hooks.ts';
import { register as autocomplete } from './autocomplete.ts';

export default defineDomain('collaboratore', (app) => {
  hooks(app);
  autocomplete(app);
});
