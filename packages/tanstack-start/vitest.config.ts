import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    globalSetup: ["test/install-chromium.ts"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }),
  },
})
