// Policies and their titles (spec 002 §2.2, §2.3, §3.1-3.3): hooks of both resources and the custom routes.
import './hooks.ts';
import './routes.ts';
import './incassi.ts';
