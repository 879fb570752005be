// Lint enforces the folder boundaries described in docs/architecture.md; formatting and style are left to the editor.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noServerOrWeb = [
  { group: ['**/server/**', '**/web/**'], message: 'render and contract never import server or web code.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'drizzle/**', 'test-results/**', 'playwright-report/**', 'bench/out/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/contract/**'], rules: restrict([...noServerOrWeb, { group: ['**/render/**'], message: 'contract is the bottom layer.' }]) },
  { files: ['src/render/**'], rules: restrict(noServerOrWeb) },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      ...restrict([{ group: ['**/server/**', '**/render/**'], message: 'web never imports server or renderer code.' }]),
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  { files: ['src/web/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['src/server/**/*.routes.ts'],
    rules: restrict([
      { group: ['**/*.repository*', '**/db/**', 'drizzle-orm', 'drizzle-orm/*'], message: 'routes call services, not repositories or the database.' },
    ]),
  },
  {
    files: ['src/server/**/*.service.ts'],
    rules: restrict([
      { group: ['**/*.routes*', 'fastify'], message: 'services know nothing of HTTP.' },
      { group: ['**/db/schema*', 'drizzle-orm', 'drizzle-orm/*'], message: 'services call repositories for queries.' },
    ]),
  },
);
