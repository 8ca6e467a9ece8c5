import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  // The module the integration's Vite plugin serves in an app.
  resolve: { alias: { "portcullis:config": new URL("test/fixtures/config-module.ts", import.meta.url).pathname } },
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    globalSetup: ["test/install-chromium.ts"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }),
  },
})
