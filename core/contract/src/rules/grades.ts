/** Grade-type rules (spec 001 §3 "grade type (range minimum and maximum)", §5 "Grade types ascending"). */

export interface GradeRange {
  min: number
  max: number
}

const isNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)

/** A grade type is valid when its minimum and maximum are numbers and the minimum is below the maximum (spec 001 §5). */
export function checkGradeType(range: GradeRange): boolean {
  return isNumber(range.min) && isNumber(range.max) && range.min < range.max
}

/**
 * Grade types are ascending (spec 001 §5) when each is valid and each starts at or after the end of the
 * previous one. Sharing an end point (0-3 then 3-4) is allowed; overlapping further is not.
 */
export function gradeTypesAscending(list: readonly GradeRange[]): boolean {
  return list.every((range, i) => checkGradeType(range) && (i === 0 || range.min >= list[i - 1]!.max))
}

/** A grade is accepted only inside its grade type's range, both ends included (spec 001 §5). */
export function gradeInRange(grade: number, range: GradeRange): boolean {
  return isNumber(grade) && checkGradeType(range) && grade >= range.min && grade <= range.max
}
