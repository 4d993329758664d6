import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'electron', '../main/*', '../renderer/*', '../preload/*', '../../main/*', '../../renderer/*', '../../preload/*'] },
      ],
    },
  },
  {
    // One clock: main reads the time and waits only through the Clock it is given (main/clock.ts).
    files: ['main/**/*.ts'],
    ignores: ['main/clock.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Read the time from the Clock (main/clock.ts) given to this code: clock.now().' },
        { object: 'globalThis', property: 'setTimeout', message: 'Wait on the Clock (main/clock.ts) given to this code: clock.setTimeout() or clock.sleep().' },
        { object: 'globalThis', property: 'setInterval', message: 'Repeat on the Clock (main/clock.ts) given to this code: clock.setInterval().' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the Clock (main/clock.ts) given to this code: clock.date().',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Wait on the Clock (main/clock.ts) given to this code: clock.setTimeout() or clock.sleep().' },
        { name: 'setInterval', message: 'Repeat on the Clock (main/clock.ts) given to this code: clock.setInterval().' },
        { name: 'clearTimeout', message: 'Cancel the TimerHandle the Clock (main/clock.ts) returned: handle.cancel().' },
        { name: 'clearInterval', message: 'Cancel the TimerHandle the Clock (main/clock.ts) returned: handle.cancel().' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'node:timers', message: 'Wait on the Clock (main/clock.ts) given to this code.' },
            { name: 'node:timers/promises', message: 'Wait on the Clock (main/clock.ts) given to this code: clock.sleep().' },
          ],
        },
      ],
    },
  },
  {
    // The store keeps its SQL, its transactions and its files to itself: the rest of main imports
    // main/store/index.ts only, and never the database driver (repositories, not a handle).
    // (A rule of its own name, so it does not replace the clock's imports rule.)
    files: ['main/**/*.ts'],
    ignores: ['main/store/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/store/*'], message: "Import the store's public index (main/store/index.ts), not its files." },
            { group: ['better-sqlite3'], message: 'Only main/store/ talks to the database: ask for a repository (main/store/index.ts).' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Components never call main: a feature's calls live in its data module (queries and mutations,
    // keys from its key factories), and a failure is the query's or mutation's error.
    files: ['renderer/**/*.tsx'],
    ignores: [
      // The composition root connects the bridge and follows main's events.
      'renderer/src/main.tsx',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/api', './api'],
              importNames: ['call', 'calloutApi'],
              message: "Call main from the feature's data module (a query or mutation hook), not from a component.",
            },
            {
              group: ['**/app/query', './query'],
              importNames: ['ask'],
              message: "Call main from the feature's data module (a query or mutation hook), not from a component.",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='window'][property.name='callout']",
          message: "Reach main from the feature's data module, not from a component.",
        },
      ],
    },
  },
  {
    files: ['bin/**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
