import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    // The first run on a fresh machine installs PostgreSQL and Redis with apt-get.
    hookTimeout: 180_000,
  },
})
