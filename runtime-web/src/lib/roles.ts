import { isCoreRole } from '@tramita/contract/rules'

/**
 * A role as the page shows it: the spec's four by their name in the page's language (`role_names.*`
 * in core/i18n), any role an installation added as it was named (that name is the users' own text).
 */
export function roleLabel(t: (key: string) => string, name: string): string {
  return isCoreRole(name) ? t(`role_names.${name}`) : name
}
