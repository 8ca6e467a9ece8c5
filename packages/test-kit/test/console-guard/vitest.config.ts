import { defineConfig } from "vitest/config"

// The files test/console-guard.test.ts runs in a vitest of their own, with the guard as the packages list it.
export default defineConfig({
  test: {
    include: ["*.fixture.ts"],
    setupFiles: [new URL("../../src/console-guard.ts", import.meta.url).pathname],
  },
})
