import { test } from '@japa/runner'
import { toStoredValue } from '../src/index.js'

const roles = { field_name: 'f', type: 'roles', data: { multiple: true } }
const picked = [
  { id: 1, name: 'superuser' },
  { id: 3, name: 'teacher' },
  { id: 9, name: 'Coordinación' },
]

test.group('role names in stored values', () => {
  test("the spec's four roles read in the language; other roles as they are named", ({ assert }) => {
    assert.equal(toStoredValue(roles, picked).value_replace, 'Superusuario, Docente, Coordinación')
    assert.equal(toStoredValue(roles, picked, { lang: 'en' }).value_replace, 'Superuser, Teacher, Coordinación')
    assert.equal(toStoredValue(roles, picked, { lang: 'zh' }).value_replace, '超级用户, 教师, Coordinación')
    // What is stored names the roles by id, whatever the language.
    assert.equal(toStoredValue(roles, picked, { lang: 'zh' }).value_simple, '[1,3,9]')
  })

  test('a role named like a text key or with separators keeps its name', ({ assert }) => {
    const odd = [
      { id: 4, name: 'role_names' },
      { id: 5, name: 'a.b:c' },
      { id: 6, name: '{{x}} & <b>' },
      { id: 7, name: 'Superuser' },
    ]
    assert.equal(toStoredValue(roles, odd, { lang: 'en' }).value_replace, 'role_names, a.b:c, {{x}} & <b>, Superuser')
  })
})
