// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/** Import bans that keep each layer honest; test/layering.test.ts checks the same map by scanning imports. */
const noElectron = { name: 'electron', message: 'electron is imported only in main/app, main/host/electron.ts, main/index.ts and preload.' }
const noPty = { name: 'node-pty', message: 'node-pty is imported only in src/main/pty.' }
const noSdk = { name: '@anthropic-ai/sdk', message: 'The Anthropic SDK is imported only in src/main/services/model.' }
const noMcpSdk = { group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], message: 'The MCP SDK is imported only in src/main/services/mcp (and the test servers in test/mcp).' }

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', '.bundle-check-test-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [noElectron, noPty, noSdk], patterns: [noMcpSdk] }],
    },
  },
  {
    files: ['src/main/app/**', 'src/main/host/electron.ts', 'src/main/index.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noPty, noSdk], patterns: [noMcpSdk] }] },
  },
  {
    files: ['src/main/pty/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noSdk], patterns: [noMcpSdk] }] },
  },
  {
    files: ['src/main/services/model/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noPty], patterns: [noMcpSdk] }] },
  },
  {
    // The MCP client, and the MCP servers written for the tests.
    files: ['src/main/services/mcp/**', 'test/mcp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noPty, noSdk] }] },
  },
  {
    // The scripted model server's own tests drive it with the real SDK to prove the wire format.
    files: ['test/model-server/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, noPty], patterns: [noMcpSdk] }] },
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
          patterns: [{ group: ['**/main/**', '**/preload/**', 'node:*'], message: 'The renderer talks to main only through the api client.' }, noMcpSdk],
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
          patterns: [{ group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**', 'node:*'], message: 'shared/ imports nothing of ours but itself, and no node:*.' }, noMcpSdk],
        },
      ],
    },
  },
)
