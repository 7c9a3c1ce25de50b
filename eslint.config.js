import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

const FEATURES = './src/renderer/src/features';

/**
 * The features each renderer feature may import, and nothing else: what two features share and
 * neither owns lives in src/components or src/api. The graph has no cycles (checked as this file
 * loads), and every feature folder is in it, so a new feature states its place.
 */
const featureDependencies = {
  account: ['credits', 'signup', 'sso'],
  admin: [],
  announcements: [],
  auth: ['sso'],
  billing: [],
  chat: ['credits', 'dashboard', 'sources'],
  contact: [],
  credits: ['announcements'],
  dashboard: ['announcements', 'contact', 'credits'],
  desktop: [],
  developers: [],
  sharing: ['chat', 'sources'],
  signup: [],
  sources: [],
  sso: ['signup'],
  store: [],
  studio: ['chat', 'sources'],
};

function featureZones() {
  const folders = readdirSync(FEATURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const undeclared = folders.filter((folder) => !(folder in featureDependencies));
  if (undeclared.length) throw new Error(`eslint.config.js: add ${undeclared.join(', ')} to featureDependencies`);
  const visiting = new Set();
  const done = new Set();
  const visit = (feature, path) => {
    if (done.has(feature)) return;
    if (visiting.has(feature)) throw new Error(`eslint.config.js: features import each other: ${[...path, feature].join(' → ')}`);
    visiting.add(feature);
    for (const dependency of featureDependencies[feature]) visit(dependency, [...path, feature]);
    visiting.delete(feature);
    done.add(feature);
  };
  for (const feature of folders) visit(feature, []);
  return folders.flatMap((feature) => {
    const allowed = featureDependencies[feature];
    const others = folders.filter((other) => other !== feature && !allowed.includes(other));
    return [
      ...(others.length
        ? [
            {
              target: `${FEATURES}/${feature}`,
              from: others.map((other) => `${FEATURES}/${other}`),
              message: `${feature} may import only ${allowed.join(', ') || 'no other feature'} (featureDependencies); share through src/components or src/api.`,
            },
          ]
        : []),
      // A screen is reached through the router, never imported for a piece of it.
      ...allowed.map((other) => ({
        target: `${FEATURES}/${feature}`,
        from: [`${FEATURES}/${other}/**/*Page.tsx`, `${FEATURES}/${other}/**/*Layout.tsx`],
        message: "Another feature's screen is not a library: move the shared piece to src/components.",
      })),
    ];
  });
}

/** Boundaries of DESIGN §4, checked on every `npm test`. */
const boundaryZones = [
  { target: './src/shared', from: ['./src/main', './src/preload', './src/renderer', './src/server'], message: 'shared imports nothing from the other layers.' },
  {
    target: './src/renderer',
    from: ['./src/main', './src/preload', './src/server'],
    message: 'The renderer talks to main only through window.bridge via src/platform, and to the server only over HTTP.',
  },
  { target: './src/server', from: ['./src/renderer', './src/main', './src/preload'], message: 'The server never imports client code.' },
  { target: './src/main', from: ['./src/renderer', './src/server'], message: 'main never imports the renderer or the server.' },
  { target: './src/preload', from: ['./src/renderer', './src/server', './src/main'], message: 'The preload is built from src/shared/ipc only.' },
  ...featureZones(),
];

/** The variable `name` resolves to from `scope`, looking outward. */
function variableOf(scope, name) {
  for (let current = scope; current; current = current.upper) {
    const variable = current.set.get(name);
    if (variable) return variable;
  }
  return null;
}

/**
 * DESIGN §4: inside the callback of `X.transaction(…)`, `X` itself is an error: the transaction is
 * the handle to use there. On PGlite (one connection) a statement on `X` waits for the transaction,
 * which waits for it, and the whole server stops answering. The syntactic case only; a helper that
 * reaches the outer handle another way is caught at run time by src/server/db/transactionGuard.ts.
 */
const noOuterHandleInTransaction = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { outer: '`{{handle}}` used inside its own transaction: use the transaction handle the callback receives (on PGlite this waits forever).' },
  },
  create(context) {
    const { sourceCode } = context;
    return {
      "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction']"(call) {
        const [callback] = call.arguments;
        if (!callback || (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression')) return;
        const handle = call.callee.object;
        let root = handle;
        while (root.type === 'MemberExpression') root = root.object;
        if (root.type !== 'Identifier') return;
        const variable = variableOf(sourceCode.getScope(call), root.name);
        if (!variable) return;
        const handleText = sourceCode.getText(handle);
        const [start, end] = callback.range;
        for (const reference of variable.references) {
          const [at] = reference.identifier.range;
          if (at < start || at > end) continue;
          // `db`, or the same member chain as the handle (`deps.db`), read from the outer variable.
          for (let node = reference.identifier; ; node = node.parent) {
            if (sourceCode.getText(node) === handleText) {
              context.report({ node, messageId: 'outer', data: { handle: handleText } });
              break;
            }
            if (node.parent?.type !== 'MemberExpression' || node.parent.object !== node) break;
          }
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'dist-web', 'dist-server', 'release', '.data', 'test-results', 'playwright-report', 'src/server/db/migrations'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      // no-cycle reads the imported files too: with the TypeScript parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or handles loses its error, and one handed to an
    // event handler that expects nothing is never awaited.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { project: ['./tsconfig.node.json', './tsconfig.web.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['electron', 'node:*', 'react', 'react-dom', 'fs', 'path'] }],
    },
  },
  {
    // The database's foreign keys are cyclic (tenants.logo_file_id → files, files.tenant_id →
    // tenants), so the per-domain schema files import each other. Safe: a reference is a function
    // run after every file has loaded, and `tenantId()` is a hoisted function declaration.
    files: ['src/server/db/schema/**'],
    rules: { 'import-x/no-cycle': 'off' },
  },
  {
    files: ['src/server/**/*.ts', 'tests/**/*.ts'],
    plugins: { local: { rules: { 'no-outer-handle-in-transaction': noOuterHandleInTransaction } } },
    rules: { 'local/no-outer-handle-in-transaction': 'error' },
  },
  {
    // Services return data (the chat answer as frames); routes own the HTTP side. In a domain
    // folder only the route files (routes.ts, <name>Routes.ts) touch Fastify, and the shared
    // helpers not at all; domains/plugin.ts makes the route plugins.
    files: ['src/server/domains/**', 'src/server/shared/**'],
    ignores: ['src/server/domains/**/routes.ts', 'src/server/domains/**/*Routes.ts', 'src/server/domains/plugin.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify-plugin', '@fastify/*'],
              message: 'Services know nothing of HTTP; the route writes the response (routes.ts or <name>Routes.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/src/features/**', 'src/renderer/src/components/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='window'][property.name='bridge']", message: 'Use src/platform, never window.bridge directly.' },
      ],
    },
  },
  {
    // One way to query and mutate (docs/decisions/0069-endpoint-hooks.md): outside src/renderer/src/api
    // a call names its endpoint through api/endpointHooks.ts, so its cache key, types, pending state
    // and error toast follow from the contract. A justified exception disables the rule on its line
    // with a comment that says why.
    files: ['src/renderer/src/**'],
    ignores: ['src/renderer/src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            // Measured beside the chat's renderer by bench:stream only: never in the app's bundle.
            { name: 'streamdown', message: 'A dev dependency of bench:stream only (tests/bench/stream).' },
            { name: 'react-markdown', message: 'A dev dependency of bench:stream only (tests/bench/stream).' },
            {
              name: '@tanstack/react-query',
              importNames: ['useQuery', 'useQueries', 'useInfiniteQuery', 'useSuspenseQuery', 'useMutation'],
              message:
                'Use useEndpointQuery, useEndpointInfiniteQuery or useEndpointMutation (api/endpointHooks.ts), or a named query of src/renderer/src/api.',
            },
          ],
          patterns: [
            {
              group: ['**/api/client'],
              importNames: ['callEndpoint'],
              message:
                'Screens call endpoints through api/endpointHooks.ts (a request that is not one JSON call goes through its `send`), never callEndpoint directly.',
            },
          ],
        },
      ],
    },
  },
);
