import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "./src/index.js"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    ...scaledTimeouts({ testTimeout: 20_000 }),
  },
})
