// Lint enforces the folder boundaries described in docs/architecture.md; formatting and style are left to the editor.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

/**
 * Which feature may import which: a feature imports only those listed for it (and lib, hooks,
 * components). The graph has no cycles; pages (src/web/pages) compose features and nothing imports them.
 */
const FEATURE_DEPENDENCIES = {
  admin: ['public-api'],
  marketing: [],
  formats: [],
  bulk: ['formats'],
  documents: ['formats', 'bulk', 'delivery'],
  'data-entry': ['formats', 'documents', 'delivery'],
  builder: ['formats'],
  'template-import': ['builder'],
  'public-api': ['formats'],
  'api-docs': [],
  billing: [],
  mail: ['delivery'],
  delivery: ['bulk'],
  teams: [],
};
const FEATURES = Object.keys(FEATURE_DEPENDENCIES);
const featureZones = [
  ...FEATURES.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: FEATURES.filter((other) => other !== feature && !FEATURE_DEPENDENCIES[feature].includes(other)).map((other) => `./src/web/features/${other}`),
    message: `${feature} may import only the features listed for it in eslint.config.js.`,
  })),
  {
    target: ['./src/web/features', './src/web/components', './src/web/hooks', './src/web/lib'],
    from: ['./src/web/pages', './src/web/app.tsx'],
    message: 'Pages are composed in src/web/pages; nothing below them imports a page.',
  },
  {
    target: ['./src/web/components', './src/web/hooks', './src/web/lib'],
    from: ['./src/web/features'],
    message: 'Shared code does not depend on a feature.',
  },
];

/**
 * Server modules (src/server/modules/<name>) are entered through their index.ts only: code outside a
 * module that imports any other file of it fails lint. Unit tests may use its inner files; tests, browser
 * journeys and benchmarks its test/ kits.
 */
const SERVER_MODULES = readdirSync(new URL('./src/server/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const frontDoorZones = SERVER_MODULES.map((name) => ({
  target: [
    './src/server/!(modules)/**',
    './src/server/*.ts',
    `./src/server/modules/!(${name})/**`,
    './src/server/modules/*.ts',
    './scripts/**',
    './bench/**',
    './e2e/**',
  ],
  from: `./src/server/modules/${name}`,
  // A module's test/ folder holds test kits, for tests and benchmarks anywhere.
  except: ['./index.ts', './test'],
  message: `Import the ${name} module through its index.ts.`,
}));

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noServerOrWeb = [{ group: ['**/server/**', '**/web/**'], message: 'render and contract never import server or web code.' }];

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
      'import-x/no-restricted-paths': ['error', { zones: featureZones }],
    },
  },
  // Web tests run the real server in process; only their shared support folder reaches into it.
  { files: ['src/web/test/**'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['src/web/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  // A choice card's text sits a few spans deep inside its label.
  {
    files: ['src/web/**/*.tsx'],
    rules: {
      'jsx-a11y/label-has-associated-control': ['error', { depth: 4 }],
      // A scrolling region must take focus so keyboard users can scroll it.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
      // Like a dialog, a fieldset being edited may close on Escape.
      'jsx-a11y/no-noninteractive-element-interactions': [
        'error',
        {
          handlers: ['onClick', 'onError', 'onLoad', 'onMouseDown', 'onMouseUp', 'onKeyPress', 'onKeyDown', 'onKeyUp'],
          alert: ['onKeyUp', 'onKeyDown', 'onKeyPress'],
          body: ['onError', 'onLoad'],
          dialog: ['onKeyUp', 'onKeyDown', 'onKeyPress'],
          fieldset: ['onKeyDown'],
          iframe: ['onError', 'onLoad'],
          img: ['onError', 'onLoad'],
        },
      ],
    },
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
  {
    files: ['src/server/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/server/test/**'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.node.json' })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: frontDoorZones }] },
  },
);
