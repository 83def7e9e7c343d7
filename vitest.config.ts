import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Tests of several instances on one database server, and of PostgreSQL restarting (on a
 * cluster of the test's own, from the server binaries): PostgreSQL only, run when DATABASE_URL is set.
 */
const POSTGRES_ONLY_TESTS = ["tests/integration/fleet.test.ts", "tests/integration/rolling-restart.test.ts", "tests/integration/database-restart.test.ts"];

// Not vite.config.ts: React Router's Vite plugin must not run under Vitest.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/architecture/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**", ...(process.env.DATABASE_URL ? [] : POSTGRES_ONLY_TESTS)],
    environment: "node",
    // Each integration test file has its own temporary DATA_DIR or PostgreSQL
    // database and its own ports, so files may run side by side.
    pool: "forks",
    // An integration test file spends most of its time waiting for processes of
    // its own (the built server, the CLI, PostgreSQL). Vitest's default, a
    // worker per core but one, ran 2-core CI one file at a time with its cores
    // mostly idle (972 s of Vitest in a 25.7-minute run); at least 4 at once.
    maxWorkers: Math.max(4, availableParallelism()),
    globalSetup: ["tests/support/global-setup.ts"],
    // Generous: spawned servers and fresh PostgreSQL databases are slow on a
    // busy shared 2-core machine. Typical tests take milliseconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
