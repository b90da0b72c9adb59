/**
 * The spec's four roles (spec 001 §6). Installations may add more; these cannot be renamed or
 * deleted, because the rank rules and the seed depend on their names.
 */
export const CORE_ROLES = ['superuser', 'supervisor', 'teacher', 'student'] as const

export function isCoreRole(name: string): boolean {
  return (CORE_ROLES as readonly string[]).includes(name)
}
