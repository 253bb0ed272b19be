// The prodotto_assegnato domain: hooks.
import './hooks.ts';
