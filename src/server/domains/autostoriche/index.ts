// Registers the historic-car model domain: hooks of the generic API and the import and look-up routes.
import './hooks.ts';
import './routes.ts';
