import { defineConfig } from "vitest/config"
import { workspaceFacts } from "./scripts/workspace-facts.js"

export default defineConfig({
  define: { __WORKSPACE__: JSON.stringify(workspaceFacts()) },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
})
