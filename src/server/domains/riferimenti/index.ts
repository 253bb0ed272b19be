// Reference data domain: record check for codici fiscali and the autocomplete routes (the loader runs from bootstrap).
import './checks.ts';
import './routes.ts';
