import { defineConfig } from 'vitest/config';
import { useBundledFonts } from './tests/support/fonts.ts';

// Quiet by default (warnings and errors only), in the service the global setup starts and in every worker.
process.env.LOG_LEVEL ??= 'warn';
// Text drawn into test images uses the fonts npm installed, on any machine (every worker inherits it).
useBundledFonts();

/**
 * Two projects. `unit`: tests beside the pure modules they test, with no emulators (no Java, no
 * service): `npm run test:unit`. `e2e`: integration and end-to-end tests under tests/, against one
 * local service that the global setup starts for the whole run. `npm test` runs both.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    // With `--coverage` (npm test passes it): V8's own counters in each test worker, so what the
    // unit and integration tests run in-process counts; the service the global setup starts and the
    // processes the e2e tests spawn are not measured. The floor is the whole run's figure on a clean
    // clone on 2026-11-26, second session (74.79 / 61.16 / 75.29 / 76.77 %), rounded down (branches
    // and functions a point lower: timing-dependent paths move them a little between runs). Raise it
    // when coverage rises, never lower it (README, "Tests").
    coverage: {
      provider: 'v8',
      include: ['{shared,functions,connection-host,simulator,scripts,infra}/**/*.{ts,tsx}'],
      exclude: ['**/*.test.ts', 'functions/api/console/app/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { statements: 74, branches: 60, functions: 74, lines: 76 },
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{shared,functions,connection-host,infra,simulator,scripts}/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/worker-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
