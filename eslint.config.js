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
      // A caught error or an AbortSignal's reason is passed on as it came: rejecting with `unknown` is deliberate.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Off: the code builds objects from closures (no `this`); the rule cannot tell a closure typed as a
      // method (`push.handle`, `pin.leave`, `input.onInput`) from a class method, so every hit was a false alarm.
      'unbound-method': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Off: Solid assigns `let el!: HTMLElement` through `ref={el}` in JSX, which this rule cannot see.
      'no-unassigned-vars': 'off',
      // Off: the control-character classes are the point (filenames, Markdown and search text strip C0 controls).
      'no-control-regex': 'off',
    },
  },
  // Tests, e2e, bench and test fixtures read untrusted JSON payloads on purpose (`JSON.parse` is `any`) and
  // implement async interfaces with sync bodies; the unsafe-any family and require-await only add noise there.
  {
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**',
      'bench/**',
      'src/testing/**',
      'server/**/testing.ts',
      'server/**/testing/**',
      'server/gateway/testclient.ts',
      'server/faultproxy/**',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      // Fixtures pass IndexedDB request errors (possibly null) and raw ws payloads on as the platform gives them.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // `unknown | Foo` in a test's parsed-JSON type documents the expected shape.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Playwright fixtures must destructure their first argument, even when they use none: `async ({}, use)`.
      'no-empty-pattern': 'off',
    },
  },
  { files: ['src/**/*.tsx', 'src/app/**/*.ts'], ...solid },
  // Plain JS files are outside every tsconfig: lint them without types.
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
