// The ANIA/SIVI/ATRC registries as the back office sees them; a sandbox and an HTTP implementation satisfy it.
import type { DatiRegistro } from '../../../shared/registri.ts';

export interface RichiestaRegistro {
  targa: string;
  /** ANIA vehicle type (A, B, C, M, Q, R, S, T, W, Z). */
  tipologia: string;
  /** The contractor's tax code or VAT number, which the registries compare with the holder. */
  codiceFiscaleContraente?: string;
}

export interface RegistriAdapter {
  interroga(richiesta: RichiestaRegistro): Promise<DatiRegistro>;
}

/** The registry could not be reached or answered something unusable: nothing is stored. */
export class RegistroNonDisponibile extends Error {}
