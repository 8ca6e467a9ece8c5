import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 60_000 }),
  },
})
