import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

const stub = (file: string) => fileURLToPath(new URL(`./test/stubs/${file}`, import.meta.url))

export default defineConfig({
  // SvelteKit's virtual modules, for the unit tests of code that runs inside an app's build.
  resolve: {
    alias: {
      "$app/environment": stub("app-environment.ts"),
      "$app/paths": stub("app-paths.ts"),
      "$env/dynamic/private": stub("env-dynamic-private.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    // One SvelteKit build per run, shared by every browser test.
    globalSetup: ["test/sveltekit-app.ts"],
    ...scaledTimeouts({ testTimeout: 30_000, hookTimeout: 60_000 }),
  },
})
