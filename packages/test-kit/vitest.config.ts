import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Its own guard, from the source: the package's tests run before it is built.
    setupFiles: ["src/console-guard.ts"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }),
  },
})
