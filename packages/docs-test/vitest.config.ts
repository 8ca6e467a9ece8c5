import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each framework's project is type-checked and started in its own test: tsc alone takes
    // several seconds on a busy machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
})
