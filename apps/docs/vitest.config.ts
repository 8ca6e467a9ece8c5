import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/install-chromium.ts"],
    // The site test builds nothing (turbo's build does) but drives Chromium over every page.
    ...scaledTimeouts({ testTimeout: 60_000, hookTimeout: 60_000 }),
  },
})
