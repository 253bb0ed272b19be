// Permission expressions shared by server (enforcement) and client (hiding): 'a|b' any, 'a&b' all.

export interface Grants {
  permissions: string[];
  roles: string[];
}

export const SUPER_ADMIN = 'super_admin';

/** Who plans and applies live changes of the definitions (the studio). */
export const GESTIONE_DEFINIZIONI = 'gestione_definizioni';

/** True when the grants satisfy the expression; no grants or no expression means denied. */
export function hasPermission(expression: string | undefined, granted: Grants | undefined): boolean {
  if (!granted || !expression) return false;
  if (granted.roles.includes(SUPER_ADMIN)) return true;
  const owns = (name: string) => granted.permissions.includes(name) || granted.roles.includes(name);
  if (expression.includes('|')) return expression.split('|').some((p) => owns(p.trim()));
  if (expression.includes('&')) return expression.split('&').every((p) => owns(p.trim()));
  return owns(expression.trim());
}
