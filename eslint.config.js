// ESLint: the architecture's import rules, enforced (CONTRIBUTING.md explains each one), plus
// typescript-eslint's recommended checks, the rules of hooks, jsx-a11y on the client, kebab-case
// file names and a size limit per file. Formatting is Prettier's job.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const dirsIn = (rel) =>
  fs
    .readdirSync(path.join(ROOT, rel), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/**
 * The cross-feature imports the client allows, each through the other feature's `index.ts` only:
 * the orders page signs in (auth) with the connected wallet (wallet); a product page adds to the
 * cart (cart); the admin's payments desk refunds from the store wallet through the shop's wallet
 * session (wallet). Every other pair of features is independent.
 */
export const CLIENT_FEATURE_IMPORTS = {
  orders: ['auth', 'wallet'],
  catalogue: ['cart'],
  admin: ['wallet'],
};

/**
 * Which server modules each module's code may import (through their index.ts). The graph must stay
 * acyclic: this file refuses to load if it is not, and the zones below refuse every other edge,
 * type-only imports included (import-x/no-cycle does not see those). Tests may import any module.
 */
export const SERVER_MODULE_IMPORTS = {
  payments: ['orders', 'auth', 'cart', 'catalogue', 'session', 'stock', 'outgoing-webhooks'],
  orders: ['auth', 'catalogue', 'outgoing-webhooks'],
  cart: ['catalogue', 'session'],
  catalogue: ['stock', 'outgoing-webhooks'],
  admin: ['catalogue', 'orders', 'payments', 'session', 'stock', 'outgoing-webhooks'],
  paymaster: ['payments'],
  notifications: ['orders', 'auth'],
  'price-reference': ['payments'],
  swaps: ['payments'],
  auth: ['session'],
  session: [],
  stock: [],
  'outgoing-webhooks': [],
};

/**
 * The tables each server module owns: only its own code reads or writes them; every other module
 * goes through the owner's index.ts (reads as read functions, writes as functions taking the
 * caller's transaction, so one transaction still spans them). `lib` is the shared infrastructure
 * outside the modules (server/lib). server/table-owners.test.ts reads each module's queries, joins
 * and raw SQL included, and fails on a table the module does not own, on a table of the
 * migrations that has no owner or two, and on any table queried by the rest of server/ (the
 * operations files, the SEO routes, the wiring: they go through the modules).
 */
export const TABLE_OWNERS = {
  catalogue: ['products', 'variants', 'catalogue_sync_runs', 'catalogue_changes'],
  cart: ['cart_items', 'cart_versions'],
  session: ['sessions'],
  auth: ['siwe_nonces'],
  orders: ['orders', 'order_items', 'outbox', 'webhook_events', 'refunds'],
  payments: [
    'chain_transfers',
    'checkout_amounts',
    'checkout_intents',
    'checkout_intent_items',
    'checkout_tx_reports',
    'payment_desk_resolutions',
    'payment_desk_items',
    'payment_desk_counts',
  ],
  admin: ['admin_audit_log', 'admin_login_counters', 'admin_login_state', 'admin_sessions', 'admin_sign_in_links_used'],
  paymaster: ['paymaster_sponsorships'],
  notifications: ['push_subscriptions', 'push_deliveries'],
  'price-reference': [],
  swaps: [],
  stock: [],
  'outgoing-webhooks': ['webhook_endpoints', 'webhook_messages', 'webhook_deliveries', 'webhook_attempts'],
  lib: ['app_state', 'rate_limits'],
};

/**
 * Declared readers: a folder of a module that reads other modules' tables for one screen, so the
 * screen's reads live in one place (the payments desk and the orders view read transfers,
 * checkouts, orders and refunds together, in single statements). A reader reads only the tables
 * listed here and writes none of them: every change still goes through the owner's index.ts.
 * server/table-owners.test.ts checks both.
 */
export const TABLE_READERS = {
  'admin/desk': [
    'chain_transfers',
    'checkout_intents',
    'checkout_intent_items',
    'checkout_tx_reports',
    'payment_desk_items',
    'payment_desk_counts',
    'payment_desk_resolutions',
    'orders',
    'order_items',
    'outbox',
    'refunds',
  ],
};

/** The source folders whose file names and sizes lint checks. */
const SOURCE_DIRS = '{client,server,common,emulators,e2e,bench,scripts,migrations}';
const SOURCE_EXTENSIONS = '{ts,tsx,mts,js,mjs}';

/**
 * Most lines (blank lines and comments not counted) a non-test source file may have: a file that
 * grows past it is split along a seam (a cohesive part into a file of its own, imported back).
 */
const MAX_LINES = 400;

const serverModules = dirsIn('server/modules');
const clientFeatures = dirsIn('client/features');

for (const m of serverModules) {
  if (!(m in SERVER_MODULE_IMPORTS)) throw new Error(`eslint.config.js: add server/modules/${m} to SERVER_MODULE_IMPORTS`);
}
(function assertAcyclic() {
  const state = {};
  const visit = (m, path) => {
    if (state[m] === 'done') return;
    if (state[m] === 'visiting') throw new Error(`eslint.config.js: SERVER_MODULE_IMPORTS has a cycle: ${[...path, m].join(' -> ')}`);
    state[m] = 'visiting';
    for (const dep of SERVER_MODULE_IMPORTS[m] ?? []) visit(dep, [...path, m]);
    state[m] = 'done';
  };
  for (const m of Object.keys(SERVER_MODULE_IMPORTS)) visit(m, []);
})();

/** The module graph: a module's non-test code reaches only the modules SERVER_MODULE_IMPORTS names. */
const serverModuleGraphZones = serverModules.flatMap((m) =>
  serverModules
    .filter((other) => other !== m && !SERVER_MODULE_IMPORTS[m].includes(other))
    .map((other) => ({
      target: `./server/modules/${m}/**/!(*.test).ts`,
      from: `./server/modules/${other}`,
      message: `The ${m} module does not depend on ${other}. The allowed module imports are SERVER_MODULE_IMPORTS in eslint.config.js (acyclic).`,
    })),
);

/**
 * What outside a server module may import of it: its index.ts, nothing else. A module's own files
 * import each other freely, so the zone's target is everything but the module itself.
 */
const serverModuleZones = serverModules.map((m) => ({
  target: [
    './!(server)/**',
    './server/!(modules)/**',
    './server/*.ts',
    ...serverModules.filter((o) => o !== m).map((o) => `./server/modules/${o}/**`),
  ],
  from: `./server/modules/${m}`,
  except: ['./index.ts'],
  message: `Reach the ${m} module through its index.ts (server/modules/${m}/index.ts); export what you need there.`,
}));

/**
 * Client features: another feature is reached only through its index.ts, and only along the edges
 * named in CLIENT_FEATURE_IMPORTS. app/ composes features through their index.ts and the lazy
 * route modules (routes/) the router loads.
 */
const clientFeatureZones = clientFeatures.flatMap((f) => [
  {
    target: './client/features/!(' + f + ')/**',
    from: `./client/features/${f}`,
    except: ['./index.ts'],
    message: `Import the ${f} feature through client/features/${f}/index.ts.`,
  },
  {
    target: ['./client/app/**', './client/main.tsx', './client/entry-server.tsx'],
    from: `./client/features/${f}`,
    except: ['./index.ts', './routes'],
    message: `app/ reaches the ${f} feature through its index.ts or a route module in routes/.`,
  },
  {
    target: ['./client/lib/**', './client/components/**', './client/web3/**'],
    from: `./client/features/${f}`,
    message: 'Shared client code (lib/, components/, web3/) does not depend on a feature; move the shared piece out of the feature.',
  },
  ...clientFeatures
    .filter((other) => other !== f && !(CLIENT_FEATURE_IMPORTS[other] ?? []).includes(f))
    .map((other) => ({
      target: `./client/features/${other}`,
      from: `./client/features/${f}`,
      message: `The ${other} feature does not depend on ${f}. Allowed cross-feature imports are listed in eslint.config.js (CLIENT_FEATURE_IMPORTS).`,
    })),
]);

const layerZones = [
  {
    // Above the modules: the operations files (health, readiness, live checks, metrics' sources,
    // what a failed start says), the local demo's start-up and the server-rendered pages with their
    // SEO compose the modules; the modules and the layers below them never import them.
    target: [
      './server/modules/**/!(*.test).ts',
      './server/lib/**/!(*.test).ts',
      './server/shopify/**/!(*.test).ts',
      './server/chain/**/!(*.test).{ts,mjs,mts}',
    ],
    from: ['./server/ops', './server/local', './server/pages'],
    message: 'server/ops, server/local and server/pages sit above the modules: a module (or lib, shopify, chain) does not import them.',
  },
  {
    // The layers below the modules: shared helpers, the Shopify client and the local chain serve
    // the modules and never call back into them.
    target: ['./server/lib/**/!(*.test).ts', './server/shopify/**/!(*.test).ts', './server/chain/**/!(*.test).{ts,mjs,mts}'],
    from: './server/modules',
    message: 'server/lib, server/shopify and server/chain import no module: move the shared piece down, or the code up into a module.',
  },
  {
    // The Shopify Admin client and the documents the shop sends: one public surface.
    target: ['./!(server)/**', './server/!(shopify)/**', './server/*.ts'],
    from: './server/shopify',
    except: ['./index.ts'],
    message: 'Reach the Shopify client through server/shopify/index.ts.',
  },
  {
    // The emulator stands beside the server: it must not lean on the code it stands in for.
    // Its tests may import the shop's documents to prove it answers exactly what the shop sends.
    target: './emulators/**/!(*.test).ts',
    from: './server',
    message: "The Shopify emulator's code does not import the server (its tests may).",
  },
  {
    target: './common',
    from: ['./client', './server', './emulators', './bench', './scripts', './e2e'],
    message: 'common/ is shared by client and server and imports neither.',
  },
  { target: './client', from: ['./server', './emulators'], message: 'The client imports only client/ and common/.' },
  { target: './server', from: './client', message: 'The server never imports client code; shared code lives in common/.' },
  {
    // The Shopify emulator is a dev tool beside the server: only the local-mode wiring (loaded by a
    // dynamic import in local mode) and the tests may import it, so production never loads it.
    target: [
      './server/!(test|local)/**/!(*.test).ts',
      './server/local/!(local-shopify|*.test).ts',
      './server/!(*.test).ts',
      './client/**',
      './common/**',
      './scripts/**',
    ],
    from: './emulators',
    message: 'Only server/local/local-shopify.ts (local mode) and tests import the Shopify emulator.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-ssr/',
      'dist-server/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'data/',
      'public/',
      'dev-dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(ROOT, 'tsconfig.json') })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...layerZones, ...serverModuleZones, ...serverModuleGraphZones, ...clientFeatureZones] },
      ],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      // TypeScript checks these itself, and the resolver cannot see type-only namespaces.
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      'import-x/no-unresolved': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Specs take `test` from e2e/fixtures/test.ts, which fails a test on any Content-Security-Policy violation.
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message: 'Import from e2e/fixtures/test.ts: its `test` fails on any Content-Security-Policy violation.',
            },
          ],
        },
      ],
    },
  },
  {
    // ethers' waits for a transaction ask for its receipt once, then wait for a block event; a
    // transaction mined in between, on a chain that mines only when sent to (anvil), is never seen and
    // the wait never ends. Code that talks to a node from Node asks for the receipt itself.
    files: ['{server,e2e,bench,scripts}/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['wait', 'waitForDeployment', 'waitForTransaction'].map((name) => ({
          // wait() with no argument: the shop's own waits (a work gate's, a retry's) are told what for.
          selector: `CallExpression[callee.property.name='${name}']${name === 'wait' ? '[arguments.length=0]' : ''}`,
          message: `ethers' ${name}() can miss a block and wait forever: use mined(), deployed() or receiptOf() from server/chain/mined.ts.`,
        })),
      ],
    },
  },
  {
    // File names are kebab-case (`order-state.ts`, `refund-dialog.tsx`), so an import reads the same
    // on every file system and nobody guesses a name's case; a middle extension (`.test`,
    // `.int.test`, `.spec`, `.d`) is not part of the name.
    files: [`${SOURCE_DIRS}/**/*.${SOURCE_EXTENSIONS}`],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': 'KEBAB_CASE' },
        {
          ignoreMiddleExtensions: true,
          errorMessage: 'The file name "{{ target }}" is not kebab-case (words in lower case joined by hyphens).',
        },
      ],
    },
  },
  {
    // Migrations keep knex's names, `YYYYMMDDHHMMSS_snake_name.ts`, and are exempt from kebab-case:
    // knex records each applied migration by its file name (knex_migrations), so renaming one a
    // database has applied would make knex find a migration it does not know there, and a new one
    // to run again. They are checked against knex's pattern instead (index.ts, which lists them, is
    // kebab-case like the rest).
    files: ['migrations/*.ts'],
    ignores: ['migrations/index.ts'],
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': `${'[0-9]'.repeat(14)}_+([a-z0-9])*(_+([a-z0-9]))` },
        { errorMessage: 'A migration is named YYYYMMDDHHMMSS_snake_name.ts (knex\'s convention), not "{{ target }}".' },
      ],
    },
  },
  {
    // A size limit that stops the next change growing a file past MAX_LINES: split the file along a
    // seam instead. Tests and their helpers (server/test/, e2e/) are not held to it: a test file is
    // as long as the cases it lists.
    files: [`${SOURCE_DIRS}/**/*.${SOURCE_EXTENSIONS}`],
    ignores: [
      '**/*.test.{ts,tsx}',
      'e2e/**',
      'server/test/**',
      // Data, not logic: the emulator's demo products, one literal per product.
      'emulators/shopify/demo-catalogue.ts',
    ],
    rules: {
      'max-lines': ['error', { max: MAX_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Accessibility of the client's markup (jsx-a11y's recommended rules): labels, roles, keyboard access.
    files: ['client/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The classic rules of hooks; the React Compiler's extra rules apply to code built with the
      // compiler, which this project does not use.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
