import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    // Each framework's project is type-checked and started in its own test: tsc alone takes
    // several seconds on a busy machine.
    ...scaledTimeouts({ testTimeout: 120_000, hookTimeout: 60_000 }),
  },
})
