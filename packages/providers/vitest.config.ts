import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    // A hundred provider files each load core and run one sign-in through it: in one module graph
    // that load is paid once instead of per file (half the suite's CPU time). The files share no
    // state: each stubs `fetch` and the environment for its own describe and puts them back after.
    isolate: false,
    ...scaledTimeouts({ testTimeout: 20_000 }),
  },
})
