import { readdirSync, readFileSync } from 'node:fs';
import css from '@eslint/css';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The house rules a reviewer would otherwise have to remember (docs/architecture.md, "Layers").

/** The backend's features: infrastructure below them must not know any of them. */
const FEATURES = [
  'pins',
  'boards',
  'favorites',
  'comments',
  'users',
  'auth',
  'images',
  'imports',
  'export',
  'search',
  'tokens',
  'changes',
  'realtime',
  'account',
  'invites',
  'mail',
  'pages',
  'visibility',
  'duplicates',
  'uploads',
];
/** The backend's infrastructure: it knows no feature. */
const INFRASTRUCTURE = ['http', 'jobs', 'bus', 'transactions', 'paging', 'idempotency'];
/** The assembly (its files, and server/'s parts): it imports every feature, so reaching it reaches all of them. */
const ASSEMBLY = ['app', 'server', 'main', 'routes', 'route-deps', 'job-handlers', 'openapi'];
/** The client's store and API calls, and what sits on them (screens, the socket client, styles, test helpers). */
const FRONTEND_STORE = ['state', 'api', 'outbox'];
const FRONTEND_ABOVE_STORE = ['live', 'pages', 'components', 'hooks', 'shell', 'search', 'imports', 'bulk', 'extension', 'styles', 'test-support', 'sw'];

/**
 * A folder no list above names is on no floor: nothing would stop infrastructure from importing
 * it, or it from importing a screen. Each of its files is an error until it is placed.
 */
const folders = (area) =>
  readdirSync(area, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name);
const CLASSIFIED = { backend: [...FEATURES, ...INFRASTRUCTURE, 'server', 'cli'], frontend: [...FRONTEND_STORE, ...FRONTEND_ABOVE_STORE] };
const unclassified = Object.entries(CLASSIFIED).flatMap(([area, known]) =>
  folders(area)
    .filter((name) => !known.includes(name))
    .map((name) => ({
      files: [`${area}/${name}/**`],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: 'Program',
            message: `${area}/${name}/ is on no layer: name it in eslint.config.js (FEATURES or INFRASTRUCTURE for the backend, FRONTEND_STORE or FRONTEND_ABOVE_STORE for the client) so the layer rules cover it (docs/architecture.md).`,
          },
        ],
      },
    })),
);

/** The contract's modules that import zod: the client takes only types from them (docs/footprint.md). */
const ZOD_CONTRACT = readdirSync('contract')
  .filter((file) => file.endsWith('.ts') && /from 'zod'/.test(readFileSync(`contract/${file}`, 'utf8')))
  .map((file) => file.replace(/\.ts$/, ''));

/**
 * ESLint's max-lines reads JavaScript only: the same rule for a stylesheet. Code lines, not blanks
 * or comments, as for the code.
 */
const maxCssLines = {
  meta: { type: 'suggestion', schema: [{ type: 'integer', minimum: 1 }] },
  create(context) {
    const [max] = context.options;
    return {
      StyleSheet(node) {
        const lines = context.sourceCode.text
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .split('\n')
          .filter((line) => line.trim() !== '').length;
        if (lines > max) context.report({ node, message: `${lines} lines of CSS (not blanks or comments); at most ${max}: split it by area (docs/architecture.md).` });
      },
    };
  },
};

/** `no-restricted-imports` options: relative imports matching `regex` are refused with `message`. */
const refuse = (regex, message) => ({ patterns: [{ regex, message }] });

const frontendStore = refuse(
  `^\\.\\./(${FRONTEND_ABOVE_STORE.join('|')})/`,
  'The store and the API calls sit under the screens and the socket client (live/ registers itself with the store): state/ and api/ import each other and contract/, never live/ or a screen (docs/architecture.md).',
);

/** Every script and module; the stylesheets have a language of their own. */
const CODE = ['**/*.{js,mjs,cjs,ts,tsx}'];

/** What is shipped or run as the app and its tools; tests and benchmarks may be longer. */
const PRODUCTION = ['backend/**/*.{ts,tsx}', 'frontend/**/*.{ts,tsx}', 'contract/**/*.ts', 'db/**/*.ts', 'scripts/**/*.ts', 'extension/**/*.{ts,tsx}'];
const NOT_PRODUCTION = ['**/*.test.{ts,tsx}', 'frontend/test-support/**'];

/** A function's size limit (code lines, not blanks or comments). */
const LONG_FUNCTION = { max: 80, skipBlankLines: true, skipComments: true };
const LONG_FUNCTIONS_LEFT = [
  'extension/content/picker.ts',
  'frontend/bulk/BulkUpload.tsx',
  'frontend/components/boards/UserPicker.tsx',
  'frontend/imports/ImportStatus.tsx',
  'frontend/pages/BoardDetailPage.tsx',
  'frontend/pages/NewPinPage.tsx',
  'frontend/search/SearchBox.tsx',
];

export default tseslint.config(
  { ignores: ['dist/', 'extension/dist/', 'extension/.wxt/', 'node_modules/', 'data/', 'artifacts/', 'coverage/'] },
  // The code's rules read code: scoped to it, since the stylesheets are linted too (below).
  ...[js.configs.recommended, ...tseslint.configs.recommended].map((config) => ({ ...config, files: config.files ?? CODE })),
  {
    files: CODE,
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Kysely migrations are written against Kysely<any> on purpose: they must not follow later
    // changes of db/schema.ts.
    files: ['db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Sizes: a file past 300 lines (code, not blanks or comments) is two modules, a function past
    // 80 lines is two functions.
    files: PRODUCTION,
    ignores: NOT_PRODUCTION,
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', LONG_FUNCTION],
    },
  },
  {
    // The files that had a longer function when that became an error: a warning there, until each
    // is split. The list only shrinks.
    files: LONG_FUNCTIONS_LEFT,
    rules: { 'max-lines-per-function': ['warn', LONG_FUNCTION] },
  },
  {
    // A migration is history: it is never edited, so never split either.
    files: ['db/migrations/**'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // A test file past 500 lines is two subjects: split it by what it tests.
    files: NOT_PRODUCTION,
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.css'],
    plugins: { css, house: { rules: { 'max-css-lines': maxCssLines } } },
    language: 'css/css',
    rules: { 'house/max-css-lines': ['error', 300] },
  },
  {
    // Features (and every other folder of backend/ but the assembly's server/ and the cli/ entry
    // point) are assembled, they do not assemble: none imports the assembly.
    files: ['backend/*/**'],
    ignores: ['backend/server/**', 'backend/cli/**'],
    rules: {
      'no-restricted-imports': ['error', refuse(`^\\.\\./server/|^\\.\\./(${ASSEMBLY.join('|')})\\.ts$`, 'Only the assembly imports the assembly (docs/architecture.md).')],
    },
  },
  {
    // After the block above, whose options it replaces for these folders (it refuses the assembly too).
    files: [`backend/{${INFRASTRUCTURE.join(',')}}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        refuse(
          `^\\.\\./(${FEATURES.join('|')}|server)/|^\\.\\./(${ASSEMBLY.join('|')})\\.ts$`,
          'Infrastructure knows no feature: a type it needs from one is declared by the assembly (e.g. backend/route-deps.ts) or passed in (docs/architecture.md).',
        ),
      ],
    },
  },
  {
    files: ['db/**'],
    rules: {
      'no-restricted-imports': ['error', refuse('^(\\.\\./)+backend/', 'db/ is below the server: it imports nothing of backend/ (docs/architecture.md).')],
    },
  },
  {
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': ['error', refuse('^(\\.\\./)+(backend|frontend|db)/', 'contract/ is shared by server, client and tests: it imports nothing of theirs (docs/architecture.md).')],
    },
  },
  {
    files: ['frontend/{state,api,outbox}/**'],
    ignores: NOT_PRODUCTION,
    rules: { 'no-restricted-imports': ['error', frontendStore] },
  },
  {
    // A value imported from a schema module brings zod (~24 KB gzip) into the client's first
    // script; its values have zod-free homes beside it (e.g. search-rules.ts beside search.ts).
    files: ['frontend/**/*.{ts,tsx}'],
    ignores: NOT_PRODUCTION,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `contract/(${ZOD_CONTRACT.join('|')})\\.ts$`,
              allowTypeImports: true,
              message: 'This contract module defines zod schemas: import only types from it (`import type`), and values from its zod-free *-rules.ts or limits module.',
            },
          ],
        },
      ],
    },
  },
  {
    // React's rules of hooks: called at the top of a component or hook only, with every value an
    // effect or memo reads among its dependencies (an effect that runs on purpose when only some of
    // what it reads changes reads the rest through useEffectEvent).
    files: ['frontend/**/*.{ts,tsx}', 'extension/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The Node test projects share one module graph per worker (vite.config.ts, isolate: false): a
    // file must leave no module or process state behind for the next one.
    files: ['tests/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|stubEnv|stubGlobal)$/]",
          message: 'The Node test suites share modules between files: give the file its own server settings (useTestServer({ env })) instead of replacing a module or a global.',
        },
        {
          selector: "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: 'The Node test suites share a process between files: give the file its own server settings (useTestServer({ env })) instead of changing process.env.',
        },
      ],
    },
  },
  ...unclassified,
);
