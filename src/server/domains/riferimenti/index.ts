// Reference data: the codice fiscale check, the autocomplete routes, the loading of the ref_* tables at start and the cadastral codes.
import { defineDomain } from '../../extensions.ts';
import { cadastralCodes, loadReferenceData } from './loader.ts';
import { register as checks } from './checks.ts';
import { register as routes } from './routes.ts';

export default defineDomain('riferimenti', (app) => {
  checks(app);
  routes(app);
  app.extensions.prepare('reference data', async (db) => ((await loadReferenceData(db)).loaded ? 'loaded' : 'unchanged'));
  app.extensions.placeCodes(cadastralCodes);
});
