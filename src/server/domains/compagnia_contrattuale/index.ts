// The compagnia_contrattuale domain: hooks.
import './hooks.ts';
