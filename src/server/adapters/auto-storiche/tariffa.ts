// The sandbox insurer's tariff, declared as data in schemas/_reference (used for quotations and appendices alike).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Tariffa } from './sandbox.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
export const tariffa: Tariffa = JSON.parse(readFileSync(path.join(ROOT, 'schemas', '_reference', 'tariffa_auto_storiche.json'), 'utf8'));
