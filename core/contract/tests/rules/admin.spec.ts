import { test } from '@japa/runner'
import {
  GROUPER_WEIGHT_LIMIT,
  QUESTION_WEIGHT_MAX,
  QUESTION_WEIGHT_MIN,
  SMTP_PORTS,
  canAddGrouper,
  checkGradeType,
  gradeInRange,
  gradeTypesAscending,
  groupersWithinLimit,
  isQuestionTime,
  questionWeightValid,
  smtpPortMatches,
  type GradeRange,
  type SmtpSecurity,
} from '../../src/rules/index.js'

test.group('SMTP ports (SSL 465, TLS 587)', () => {
  const rows: [SmtpSecurity, number | string, boolean][] = [
    ['ssl', 465, true],
    ['ssl', '465', true],
    ['ssl', 587, false],
    ['tls', 587, true],
    ['tls', ' 587 ', true],
    ['tls', 465, false],
    ['tls', 25, false],
    ['none', 25, true],
    ['none', 2525, true],
    ['none', 0, false],
    ['none', 70000, false],
    ['none', 'abc', false],
    ['ssl', 465.5, false],
  ]
  for (const [security, port, expected] of rows) {
    test(`${security} on ${JSON.stringify(port)} is ${expected}`, ({ assert }) => {
      assert.strictEqual(smtpPortMatches(security, port), expected)
    })
  }

  test('constants', ({ assert }) => {
    assert.deepEqual({ ...SMTP_PORTS }, { ssl: 465, tls: 587 })
  })
})

test.group('grade types', () => {
  const types: [GradeRange, boolean][] = [
    [{ min: 0, max: 5 }, true],
    [{ min: 3, max: 3 }, false],
    [{ min: 5, max: 1 }, false],
    [{ min: Number.NaN, max: 1 }, false],
    [{ min: '1' as unknown as number, max: 5 }, false],
  ]
  for (const [range, expected] of types) {
    test(`checkGradeType(${JSON.stringify(range)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(checkGradeType(range), expected)
    })
  }

  const lists: [GradeRange[], boolean][] = [
    [[], true],
    [
      [
        { min: 0, max: 2.9 },
        { min: 3, max: 3.9 },
        { min: 4, max: 5 },
      ],
      true,
    ],
    [
      [
        { min: 0, max: 3 },
        { min: 3, max: 5 },
      ],
      true,
    ],
    [
      [
        { min: 3, max: 5 },
        { min: 0, max: 2.9 },
      ],
      false,
    ],
    [
      [
        { min: 0, max: 3.5 },
        { min: 3, max: 5 },
      ],
      false,
    ],
    [
      [
        { min: 0, max: 3 },
        { min: 4, max: 4 },
      ],
      false,
    ],
  ]
  for (const [list, expected] of lists) {
    test(`gradeTypesAscending(${JSON.stringify(list)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(gradeTypesAscending(list), expected)
    })
  }

  const grades: [grade: number, GradeRange, boolean][] = [
    [0, { min: 0, max: 5 }, true],
    [5, { min: 0, max: 5 }, true],
    [2.5, { min: 0, max: 5 }, true],
    [5.01, { min: 0, max: 5 }, false],
    [-0.1, { min: 0, max: 5 }, false],
    [Number.NaN, { min: 0, max: 5 }, false],
    [3, { min: 5, max: 1 }, false],
  ]
  for (const [grade, range, expected] of grades) {
    test(`gradeInRange(${grade}, ${JSON.stringify(range)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(gradeInRange(grade, range), expected)
    })
  }
})

test.group('ficha groupers (total at most 100%)', () => {
  const rows: [number[], boolean][] = [
    [[], true],
    [[50, 50], true],
    [[33.3, 33.3, 33.4], true],
    [[10, 20, 30, 40], true],
    [[60, 41], false],
    [[100, 0.001], false],
    [[-10, 50], false],
    [[Number.NaN], false],
  ]
  for (const [weights, expected] of rows) {
    test(`groupersWithinLimit(${JSON.stringify(weights)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(groupersWithinLimit(weights), expected)
    })
  }

  const adds: [number[], number, boolean][] = [
    [[50, 30], 20, true],
    [[50, 30], 21, false],
    [[], 100, true],
    [[], 101, false],
    [[100], 0, true],
  ]
  for (const [weights, weight, expected] of adds) {
    test(`canAddGrouper(${JSON.stringify(weights)}, ${weight}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(canAddGrouper(weights, weight), expected)
    })
  }

  test('the limit is 100', ({ assert }) => {
    assert.equal(GROUPER_WEIGHT_LIMIT, 100)
  })
})

test.group('questions (weight 1 to 10, time mm:ss)', () => {
  const weights: [number, boolean][] = [
    [1, true],
    [10, true],
    [5, true],
    [0, false],
    [11, false],
    [5.5, false],
    [-1, false],
    [Number.NaN, false],
  ]
  for (const [weight, expected] of weights) {
    test(`questionWeightValid(${weight}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(questionWeightValid(weight), expected)
    })
  }

  const times: [string, boolean][] = [
    ['01:30', true],
    ['00:00', true],
    ['99:59', true],
    ['1:30', false],
    ['01:60', false],
    ['01:5', false],
    ['01-30', false],
    ['001:30', false],
    [' 01:30', false],
    ['', false],
  ]
  for (const [text, expected] of times) {
    test(`isQuestionTime(${JSON.stringify(text)}) is ${expected}`, ({ assert }) => {
      assert.strictEqual(isQuestionTime(text), expected)
    })
  }

  test('weight bounds', ({ assert }) => {
    assert.deepEqual([QUESTION_WEIGHT_MIN, QUESTION_WEIGHT_MAX], [1, 10])
  })
})
