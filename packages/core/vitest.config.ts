import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

import { scaledTimeouts } from "@portcullis/test-time"

const sibling = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url))

export default defineConfig({
  // The tests import sibling packages by name, as an app would. Those packages depend on core, so
  // they cannot be core's devDependencies (turbo refuses the cycle): the names map to their
  // sources here, and in tsconfig.json's `paths` for the type check.
  resolve: {
    alias: [
      { find: /^@portcullis\/adapter-memory$/, replacement: sibling("adapter-memory/src/index.ts") },
      { find: /^@portcullis\/providers\/(.+)$/, replacement: sibling("providers/src/$1") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // A test that prints [auth][error], [auth][warn] or a stack trace fails: it records and asserts them.
    setupFiles: ["@portcullis/test-kit/console-guard"],
    ...scaledTimeouts({ testTimeout: 20_000, hookTimeout: 30_000 }),
  },
})
