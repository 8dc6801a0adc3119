// ESLint flat config. Type-aware rules read types through the `typescript` package, which is the
// TypeScript 6 JS API (@typescript/typescript6); `tsc` itself is TypeScript 7 (@typescript/native).
import js from '@eslint/js';
import solid from 'eslint-plugin-solid/configs/typescript';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dev-dist/', 'bench/.build/', 'test-results/', 'playwright-report/', '.hermes/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // The code writes `xs[i]!` on purpose, as if under noUncheckedIndexedAccess: the `!` marks a checked index.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/**/*.tsx', 'src/app/**/*.ts'], ...solid },
  // Plain JS files are outside every tsconfig: lint them without types.
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
