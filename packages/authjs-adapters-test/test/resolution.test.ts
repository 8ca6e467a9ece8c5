import { realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ours = realpathSync(fileURLToPath(new URL("../../core/dist/adapters.js", import.meta.url)))

/**
 * The file `@auth/core/adapters` names when imported from inside `adapterPackage` (resolved from
 * its own folder in the store, as Node does for its `import`).
 */
function coreAdaptersSeenBy(adapterPackage: string): string {
  const installed = realpathSync(fileURLToPath(new URL(`../node_modules/${adapterPackage}/index.js`, import.meta.url)))
  return realpathSync(createRequire(installed).resolve("@auth/core/adapters"))
}

describe("Auth.js's adapters run on this @auth/core, as in a migrating app", () => {
  for (const adapterPackage of ["@auth/pg-adapter", "@auth/unstorage-adapter"]) {
    it(`${adapterPackage} imports @auth/core/adapters from the workspace package`, () => {
      expect(coreAdaptersSeenBy(adapterPackage)).toBe(ours)
    })
  }
})
