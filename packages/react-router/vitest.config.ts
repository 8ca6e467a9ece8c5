import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/install-chromium.ts"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }),
  },
})
