// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/** Import bans that keep each layer honest; test/layering.test.ts checks the same map by scanning imports. */
const noElectron = { name: 'electron', message: 'electron is imported only in main/app, main/host/electron.ts, main/index.ts and preload.' }
const noPty = { name: 'node-pty', message: 'node-pty is imported only in src/main/pty.' }
const noSdk = { name: '@anthropic-ai/sdk', message: 'The Anthropic SDK is imported only in src/main/services/model.' }

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', '.bundle-check-test-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [noElectron, noPty, noSdk] }],
    },
  },
  {
    files: ['src/main/app/**', 'src/main/host/electron.ts', 'src/main/index.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noPty, noSdk] }] },
  },
  {
    files: ['src/main/pty/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noSdk] }] },
  },
  {
    files: ['src/main/services/model/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noPty] }] },
  },
  {
    // The scripted model server's own tests drive it with the real SDK to prove the wire format.
    files: ['test/model-server/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noPty] }] },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noPty, noSdk],
          patterns: [{ group: ['**/main/**', '**/preload/**', 'node:*'], message: 'The renderer talks to main only through the api client.' }],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, noPty, noSdk],
          patterns: [{ group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**', 'node:*'], message: 'shared/ imports nothing of ours but itself, and no node:*.' }],
        },
      ],
    },
  },
)
