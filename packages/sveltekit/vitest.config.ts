import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One SvelteKit build per run, shared by every browser test.
    globalSetup: ["test/sveltekit-app.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
