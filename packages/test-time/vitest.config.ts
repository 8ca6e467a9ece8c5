import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "./src/index.js"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test-kit's console guard from its source: test-kit depends on this package, so this one cannot
    // depend on it.
    setupFiles: ["../test-kit/src/console-guard.ts"],
    ...scaledTimeouts({ testTimeout: 20_000 }),
  },
})
