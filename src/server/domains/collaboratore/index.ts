// Collaborator domain: the hierarchy hook and the collaborator pickers.
import './hooks.ts';
import './autocomplete.ts';
