// ESLint 9 flat config, run by `npm run lint` (part of `npm test`) with --max-warnings 0.
// TypeScript: typescript-eslint's type-aware rules through the project service (each file's nearest tsconfig:
// tsconfig.json, or harness/tsconfig.json for the harness). Plain JavaScript (build and e2e scripts): ESLint's
// recommended rules only.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layer boundary (DEVELOPERS.md "Layout"): only the VS Code adapter, the wiring and the e2e suite may import `vscode`. */
const VSCODE_ALLOWED = ['src/vscode/**', 'src/extension.ts', 'test/e2e/**'];
const VSCODE_MESSAGE =
  'Only src/vscode/** and src/extension.ts may import vscode (DEVELOPERS.md "Layout"); pure modules get what they need passed in.';
/** The import rule sees import/export declarations and `import x = require()`; these are the other two ways in. */
const VSCODE_SYNTAX = [
  { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: VSCODE_MESSAGE },
  { selector: "ImportExpression[source.value='vscode']", message: VSCODE_MESSAGE },
];

/**
 * VS Code renders `[label](command:…)` in these as a link that runs a command, and `$(icon)` in quick-pick items;
 * the texts they get often hold what an agent, a terminal or a workspace wrote. Only src/vscode/ui.ts calls them,
 * and it makes every text plain first (DEVELOPERS.md "Lint and localisable strings").
 */
export const UI_SINKS = [
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showInputBox',
  'showQuickPick',
  'createQuickPick',
  'createInputBox',
  'withProgress',
];
const UI_MODULE = 'src/vscode/ui.ts';
const UI_MESSAGE = `Show messages, input boxes, quick picks and progress through ${UI_MODULE} (info/warn/error/show, input, pick, pickMany, progress): it makes untrusted text plain, so no command link can reach the user.`;
const UI_NAMES = `/^(${UI_SINKS.join('|')})$/`;
/** `window.showX(…)`, `window.showX` passed around, `window['showX']`, and `const { showX } = window`. */
const UI_SYNTAX = [
  { selector: `MemberExpression[property.name=${UI_NAMES}]`, message: UI_MESSAGE },
  { selector: `MemberExpression[computed=true][property.value=${UI_NAMES}]`, message: UI_MESSAGE },
  { selector: `ObjectPattern > Property[key.name=${UI_NAMES}]`, message: UI_MESSAGE },
];

/** Whether an agent runs is asked through src/common/agents.ts (isAgent, isAgentKind) only: one definition. */
const AGENTS_MODULE = 'src/common/agents.ts';
const SHELL_MESSAGE = `Ask whether an agent runs with isAgent() or isAgentKind() from ${AGENTS_MODULE}, not by comparing with 'shell'.`;
const SHELL_SYNTAX = [
  { selector: "BinaryExpression[operator=/^[!=]==?$/] > Literal[value='shell']", message: SHELL_MESSAGE },
  { selector: "SwitchCase > Literal[value='shell']", message: SHELL_MESSAGE },
];

/**
 * The folder map is the data flow: which folders of src each folder may import (DEVELOPERS.md "Layout"). The
 * vocabulary and the agents' folders first, then the readers (screen, logs, hooks), the watchers that feed them
 * and the store, the views, and the adapters (VS Code, the CLI) that may use everything; handoff beside the spine.
 */
/** The adapters (VS Code, the CLI) may use every folder of the spine; not each other. */
const ADAPTERS_MAY_USE = [
  'common',
  'agents',
  'detect',
  'jsonl',
  'hooks',
  'formats',
  'store',
  'hub',
  'sources',
  'replay',
  'handoff',
  'integrations',
  'views',
  'notify',
  'answer',
  'usage',
];
export const LAYERS = {
  common: [],
  agents: ['common'],
  detect: ['common', 'agents'],
  jsonl: ['common', 'agents'],
  hooks: ['common', 'agents', 'detect'],
  formats: ['common', 'hooks'],
  store: ['common'],
  hub: ['common'],
  usage: ['common', 'jsonl', 'hub'],
  sources: ['common', 'agents', 'detect', 'jsonl', 'hooks', 'formats', 'hub', 'store', 'usage'],
  replay: ['common', 'agents', 'detect', 'jsonl', 'hooks', 'formats', 'sources', 'store', 'usage'],
  handoff: ['common', 'hub', 'sources', 'store'],
  integrations: ['common', 'agents', 'detect', 'hooks', 'hub'],
  views: ['common', 'agents', 'detect', 'store', 'handoff', 'integrations', 'usage'],
  notify: ['common', 'agents', 'store', 'views'],
  answer: ['common', 'agents', 'detect', 'hooks', 'hub', 'sources', 'store'],
  vscode: ADAPTERS_MAY_USE,
  cli: ADAPTERS_MAY_USE,
};
/** A relative import that climbs into a folder of src this one may not import (folder names are unique under src). */
function layerRule(folder) {
  const banned = Object.keys(LAYERS).filter((f) => f !== folder && !LAYERS[folder].includes(f));
  const allowed = LAYERS[folder].length ? LAYERS[folder].map((f) => `src/${f}`).join(', ') : 'nothing else in src';
  const paths = folder === 'vscode' ? [] : [{ name: 'vscode', message: VSCODE_MESSAGE }];
  const patterns = banned.length
    ? [
        {
          regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`,
          message: `src/${folder} may import only ${allowed} (the data flow, DEVELOPERS.md "Layout").`,
        },
      ]
    : [];
  return { files: [`src/${folder}/**/*.ts`], rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] } };
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.e2e/',
      '.agents/',
      '.cache/',
      'artifacts/',
      '.vscode-test/',
      'l10n/',
      'resources/',
      'test/fixtures/',
      'test/hermes/',
      '**/*.d.ts',
    ],
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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: VSCODE_MESSAGE }],
        },
      ],
      'no-restricted-syntax': ['error', ...VSCODE_SYNTAX, ...UI_SYNTAX],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [AGENTS_MODULE],
    rules: { 'no-restricted-syntax': ['error', ...VSCODE_SYNTAX, ...UI_SYNTAX, ...SHELL_SYNTAX] },
  },
  {
    files: VSCODE_ALLOWED,
    rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-syntax': ['error', ...UI_SYNTAX, ...SHELL_SYNTAX] },
  },
  {
    // One seam picks the platform, so the unit suite can run as macOS and as Windows (test/platform/force.cjs).
    files: ['src/**/*.ts'],
    ignores: ['src/common/platform.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'platform',
          message: 'Use hostPlatform() from src/common/platform.ts: the unit suite forces it per platform.',
        },
      ],
    },
  },
  ...Object.keys(LAYERS).map(layerRule),
  {
    // The e2e suite drives VS Code itself; the UI module is the one place the sinks are called.
    files: ['test/e2e/**', UI_MODULE],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
