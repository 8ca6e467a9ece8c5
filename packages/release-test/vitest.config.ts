import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    // The rehearsal publishes and installs packages: it is one long test, not many short ones.
    // Generous: on a loaded 2-core machine one publish of every package takes about a minute.
    ...scaledTimeouts({ testTimeout: 420_000, hookTimeout: 420_000 }),
  },
})
