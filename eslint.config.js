import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'extension/dist/', 'extension/.wxt/', 'node_modules/', 'data/', 'artifacts/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
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
    // The client's floors (docs/architecture.md): the store (frontend/state/) and the API calls
    // (frontend/api/) know nothing of the socket client (live/ registers itself with the store), nor
    // of the screens, components and hooks that show them.
    files: ['frontend/state/**', 'frontend/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../live/**', '../pages/**', '../components/**', '../hooks/**', '../shell/**', '../search/**', '../imports/**', '../bulk/**', '../extension/**'],
              message: 'state/ and api/ are the floor of the client: they import each other and contract/, never live/ or the screens.',
            },
          ],
        },
      ],
    },
  },
);
