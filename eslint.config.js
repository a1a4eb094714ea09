// Lint: the recommended rules of ESLint and typescript-eslint, Node's globals, nothing stylistic
// (prettier formats). `npm test` runs it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/generated/**', 'bench/results/**', 'vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      // V8 keeps what an object literal's getter captures alive through every scavenge until the
      // next full GC (docs/notes/2026-11-27-literal-getters.md): a request's object takes a class
      // with the getters on its prototype. An object made once per process may say so and disable this.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message: 'A getter or setter in an object literal keeps what it captures past every scavenge: use a class.',
        },
      ],
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Input checks match control characters on purpose (paths, header values, tickers).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
