import { readFileSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const workspaceCore = realpathSync(fileURLToPath(new URL("../../core", import.meta.url)))

/**
 * The package.json of the `@auth/core` that `adapterPackage` imports (resolved from its own folder
 * in the store, as Node does for its `import`), and where it lies.
 */
function authCoreSeenBy(adapterPackage: string): { path: string; name: string; version: string } {
  const installed = realpathSync(fileURLToPath(new URL(`../node_modules/${adapterPackage}/index.js`, import.meta.url)))
  const entry = realpathSync(createRequire(installed).resolve("@auth/core/adapters"))
  let dir = dirname(entry)
  while (!dir.endsWith(`${sep}@auth${sep}core`)) dir = dirname(dir)
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string }
  return { path: dir, ...manifest }
}

describe("Auth.js's adapters run unchanged next to @portcullis/core, as in a migrating app", () => {
  for (const adapterPackage of ["@auth/pg-adapter", "@auth/unstorage-adapter"]) {
    it(`${adapterPackage} keeps Auth.js's own @auth/core from npm (no override to ours)`, () => {
      const seen = authCoreSeenBy(adapterPackage)
      expect(seen.name).toBe("@auth/core")
      expect(seen.version).toMatch(/^0\.\d+\.\d+$/)
      expect(seen.path.startsWith(workspaceCore)).toBe(false)
    })
  }
})
