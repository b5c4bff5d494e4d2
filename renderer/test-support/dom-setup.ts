/**
 * Vitest setup (every test file): in DOM test files, Testing Library's `findBy…`/`waitFor` wait up to 15 s
 * instead of 1 s. They return as soon as the element appears, so this costs nothing when the machine is
 * quiet; on a loaded 2-core CI box, lazy chunks (CodeMirror) and React commits can take longer than 1 s.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 15_000 });
}

export {};
