import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    // Installs the runtimes a fresh machine lacks, all at once, from the npm registry.
    globalSetup: ["test/install.ts"],
    // A runtime's test mostly waits (a process starting, a link expiring): three at a time on two cores.
    maxWorkers: 3,
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 60_000 }),
  },
})
