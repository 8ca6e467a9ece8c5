import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // The hooks' budget: the first run on a fresh machine installs PostgreSQL and Redis with apt-get.
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 180_000 }),
  },
})
