import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    globalSetup: ["test/install-chromium.ts"],
    // The site test builds nothing (turbo's build does) but drives Chromium over every page.
    ...scaledTimeouts({ testTimeout: 60_000, hookTimeout: 60_000 }),
  },
})
