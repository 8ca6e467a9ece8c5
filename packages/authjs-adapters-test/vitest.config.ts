import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  // Core's test harnesses, which these tests reuse, import @portcullis/adapter-memory by name, as
  // core's own vitest.config.ts maps it to its source: the same mapping here.
  resolve: {
    alias: [{ find: /^@portcullis\/adapter-memory$/, replacement: fileURLToPath(new URL("../adapter-memory/src/index.ts", import.meta.url)) }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    globalSetup: ["test/global-setup.ts"],
    // The hooks' budget: the first run on a fresh machine installs PostgreSQL and Redis with apt-get.
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 180_000 }),
  },
})
