// Lint enforces DESIGN.md's folder boundaries; formatting and style are left to the editor.
import tseslint from 'typescript-eslint';

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
    files: ['src/web/**'],
    rules: restrict([{ group: ['**/server/**', '**/render/**'], message: 'web never imports server or renderer code.' }]),
  },
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
