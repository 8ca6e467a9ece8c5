import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    globalSetup: ["test/e2e/install-chromium.ts"],
    // The browser tests start a real OpenID Provider and Chromium: generous, not tight.
    ...scaledTimeouts({ testTimeout: 30_000, hookTimeout: 30_000 }),
  },
})
