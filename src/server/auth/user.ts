// The authenticated user as every route sees it.
import type { Grants } from '../../shared/permissions.ts';

export interface AuthUser extends Grants {
  id: number;
  email: string;
  name: string;
  collaboratore_id: number | null;
  tokenId: number;
  /** A role requires two-step verification and the user has none (nor an exemption): the session may only enrol. */
  mfaDaAttivare?: boolean;
}

/** Initials for the top bar: first letters of the first two words of the name. */
export function initials(name: string): string {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');
}
