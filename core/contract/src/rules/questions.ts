/** Question-bank rules (spec 001 §3 question: weight 1 to 10, time mm:ss; §5, §9). */

/** Lightest and heaviest question weight (spec 001 §9: difficulty from 1 none to 10 very hard). */
export const QUESTION_WEIGHT_MIN = 1
export const QUESTION_WEIGHT_MAX = 10

/** A question weight is a whole number from 1 to 10 (spec 001 §5). */
export function questionWeightValid(weight: number): boolean {
  return Number.isInteger(weight) && weight >= QUESTION_WEIGHT_MIN && weight <= QUESTION_WEIGHT_MAX
}

/**
 * A question time is written mm:ss (spec 001 §3): two-digit minutes, two-digit seconds below 60.
 * Only the form is checked; 00:00 is accepted because the spec sets no minimum.
 */
export function isQuestionTime(text: string): boolean {
  return typeof text === 'string' && /^[0-9]{2}:[0-5][0-9]$/.test(text)
}
