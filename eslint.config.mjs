// ESLint 9 flat config, run by `npm run lint` (part of `npm test`) with --max-warnings 0.
// TypeScript: typescript-eslint's type-aware rules through the project service (each file's nearest tsconfig:
// tsconfig.json, or harness/tsconfig.json for the harness). Plain JavaScript (build and e2e scripts): ESLint's
// recommended rules only.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layer boundary (DEVELOPERS.md "Layout"): only the VS Code adapter, the wiring and the e2e suite may import `vscode`. */
const VSCODE_ALLOWED = ['src/vscode/**', 'src/extension.ts', 'test/e2e/**'];
const VSCODE_MESSAGE = 'Only src/vscode/** and src/extension.ts may import vscode (DEVELOPERS.md "Layout"); pure modules get what they need passed in.';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'out/', '.e2e/', '.agents/', '.cache/', 'artifacts/', '.vscode-test/', 'l10n/', 'resources/', 'test/fixtures/', 'test/hermes/', '**/*.d.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.node } },
    // Terminal output is what these scripts read: regexes over ESC, BEL and other control characters are the point.
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: VSCODE_MESSAGE }],
        },
      ],
      // The import rule sees import/export declarations and `import x = require()`; these are the other two ways in.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: VSCODE_MESSAGE },
        { selector: "ImportExpression[source.value='vscode']", message: VSCODE_MESSAGE },
      ],
    },
  },
  {
    files: VSCODE_ALLOWED,
    rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
);
