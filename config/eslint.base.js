// Shared ESLint base: the recommended JS and TypeScript rules, with the few this codebase relaxes.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export const base = tseslint.config(js.configs.recommended, ...tseslint.configs.recommended, {
  languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
  rules: {
    '@typescript-eslint/no-explicit-any': 'off',
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    '@typescript-eslint/no-non-null-assertion': 'off',
    'no-empty': ['error', { allowEmptyCatch: true }],
    // AdonisJS types its config by declaration merging into empty interfaces.
    '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
  },
})
