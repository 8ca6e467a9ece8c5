// The root of core's src holds the package's entry points and its types-only modules, nothing
// else (issue 34): a module with code of its own belongs in the folder of its concern, where a
// newcomer looks for it and the dependency rules bound it. Adding a file at the root fails here.
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"
import { describe, expect, it } from "vitest"
// @ts-expect-error: a plain ES module script, without types of its own
import { ENTRIES } from "../scripts/bundle.mjs"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const pkg = JSON.parse(readFileSync(`${packageDir}package.json`, "utf8")) as { exports: Record<string, string | { types: string }> }

/**
 * The modules at the root that are not entries: types only, so they hold no behaviour and join
 * no chunk. `model.ts` is the public shapes' leaf, `client-types.ts` the browser clients' and
 * `internal.ts` the contract every room shares (`InternalConfig`, `RequestContext`, `SignInFlow`).
 */
const TYPES_ONLY = ["client-types.ts", "internal.ts", "model.ts"]

/** The source file of each `exports` entry, by its `types` path (`./dist/x.d.ts` is `src/x.ts`). */
function exportedSources(): string[] {
  return Object.values(pkg.exports)
    .filter((target) => typeof target !== "string")
    .map((target) => target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"))
}

describe("the root of src", () => {
  it("holds only the entry points `exports` names and the types-only modules", () => {
    const root = readdirSync(`${packageDir}src`, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()
    const entries = exportedSources()
      .filter((file) => !file.slice("src/".length).includes("/"))
      .map((file) => file.slice("src/".length))
    expect(root).toEqual([...entries, ...TYPES_ONLY].sort())
  })

  it("builds exactly the entries `exports` names", () => {
    expect(Object.values(ENTRIES as Record<string, string>).sort()).toEqual(exportedSources().sort())
  })

  it.each(TYPES_ONLY)("keeps %s types only: it compiles to no JavaScript", async (file) => {
    const { code } = await transform(readFileSync(`${packageDir}src/${file}`, "utf8"), { loader: "ts", format: "esm" })
    expect(code).toBe("")
  })
})
