import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

import { workspaceFacts } from "./scripts/workspace-facts.js"

export default defineConfig({
  define: { __WORKSPACE__: JSON.stringify(workspaceFacts()) },
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    ...scaledTimeouts({ testTimeout: 30_000, hookTimeout: 180_000 }),
  },
})
