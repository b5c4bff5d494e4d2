/**
 * The import table of ARCHITECTURE.md, enforced in CI (`npm run deps:check`).
 * scripts/dependency-rules.test.ts proves a forbidden import fails this check.
 */
const TEST_FILE = '\\.(test|spec|contract)\\.tsx?$';
/** main/'s tests and test helpers (`main/test-support/`, `*-test-support.ts`). */
const MAIN_TEST_CODE = '^main/(.*\\.(test|spec)\\.tsx?$|test-support/|.*-test-support\\.ts$)';
/** Build configuration beside the renderer runs in Node, not in the renderer. */
const RENDERER_BUILD_CONFIG = '^renderer/vite\\.config\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-zod-only',
      comment: 'shared/ holds schemas and the contract used by every layer: it may import only shared/ and zod.',
      severity: 'error',
      from: { path: '^shared/', pathNot: TEST_FILE },
      to: { pathNot: ['^shared/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'engine-has-no-ui-or-transport',
      comment: 'engine/ is pure TypeScript: no main/, renderer/, Electron, UI or HTTP libraries.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: ['^main/', '^renderer/', '^e2e/', '(^|/)node_modules/(electron|react|react-dom|@xyflow|zustand|fastify|@fastify)/'] },
    },
    {
      name: 'renderer-imports-shared-only',
      comment: 'renderer/ talks to the host through the StudioApi client only: never engine/, main/, Electron or Node built-ins.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: RENDERER_BUILD_CONFIG },
      to: { path: ['^engine/', '^main/', '(^|/)node_modules/(electron|better-sqlite3|fastify)/'] },
    },
    {
      name: 'renderer-no-node-builtins',
      comment: 'renderer/ runs in a sandboxed browser context.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: [TEST_FILE, RENDERER_BUILD_CONFIG] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'main-uses-engine-entry-only',
      comment: 'main/ imports the engine through its one public entry, engine/index.ts.',
      severity: 'error',
      from: { path: '^main/', pathNot: MAIN_TEST_CODE },
      to: { path: '^engine/', pathNot: '^engine/index\\.ts$' },
    },
    {
      name: 'main-tests-use-engine-entry-or-test-support',
      comment: "main/'s tests and their helpers may also use the engine's test support (the test PostgreSQL server), nothing else inside it.",
      severity: 'error',
      from: { path: MAIN_TEST_CODE },
      to: { path: '^engine/', pathNot: ['^engine/index\\.ts$', '^engine/test-support/'] },
    },
    {
      name: 'main-not-renderer',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'electron-only-in-glue',
      comment: 'Electron is imported only by main/electron and main/preload, so the host stays testable without it.',
      severity: 'error',
      from: { pathNot: ['^main/(electron|preload)/', '^e2e/'] },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
