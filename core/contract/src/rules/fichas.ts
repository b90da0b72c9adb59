/** Ficha (grading sheet) grouper rules (spec 001 §5, §9: grouper weights total at most 100%). */

/** The most the weights of a ficha's groupers may add up to, in percent. */
export const GROUPER_WEIGHT_LIMIT = 100

// Weights such as 33.3 + 33.3 + 33.4 do not add up to exactly 100 in binary floating point.
const EPSILON = 1e-9

/**
 * Whether a ficha's grouper weights are acceptable (spec 001 §5): every weight a non-negative number and
 * the total at most 100.
 */
export function groupersWithinLimit(weights: readonly number[]): boolean {
  let total = 0
  for (const weight of weights) {
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) return false
    total += weight
  }
  return total <= GROUPER_WEIGHT_LIMIT + EPSILON
}

/** Whether a grouper of the given weight can still be created (spec 001 §5: once 100% is exceeded, no more). */
export function canAddGrouper(weights: readonly number[], newWeight: number): boolean {
  return groupersWithinLimit([...weights, newWeight])
}
