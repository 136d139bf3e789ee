// ESLint (flat config): typescript-eslint's type-checked rules, since floating and misused promises are the bugs
// an async runtime hides best; Prettier owns the layout (eslint-config-prettier turns off the rules it covers).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'docs/api/',
      'node_modules/',
      'coverage/',
      '.verbtree/',
      '.scratch/',
      'examples/user-project/node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // Omitting a property by destructuring it into an unused name beside a rest is how an object loses one.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // Passing on a caught error or an abort signal's reason (typed unknown or any) is right, as only-throw-error
      // allows by default; a string or a plain object is still caught.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  // The Node globals the plain scripts use (TypeScript knows them for the .ts files).
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: { process: 'readonly', URL: 'readonly' } } },
  prettier,
);
