// The categoria_prodotto domain: hooks, routes.
import './hooks.ts';
import './routes.ts';
