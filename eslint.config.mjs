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
      'no-restricted-imports': ['error', { patterns: ['node:*', 'electron', '../main/*', '../renderer/*', '../preload/*', '../../main/*', '../../renderer/*', '../../preload/*'] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['bin/**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
