import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['{shared,engine,main,renderer,scripts,bench}/**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**', 'e2e/**'],
    environment: 'node',
    setupFiles: ['renderer/test-support/dom-setup.ts'],
    // DUR-04: one PostgreSQL server for the run (YUKTA_TEST_PG_URL, or a throwaway cluster); each file makes its own database.
    globalSetup: ['engine/test-support/postgres-global-setup.ts'],
    // Generous: some tests spawn real child processes (CLI, kill -9), slow on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
