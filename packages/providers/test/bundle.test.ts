// Tree-shaking is the package's promise: an app that imports one provider bundles that provider
// and nothing of the others. These tests bundle real imports with esbuild and read the metafile.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build, type Plugin } from "esbuild"
import { describe, expect, it } from "vitest"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const ids = readdirSync(join(packageDir, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(packageDir, "src", entry.name, "index.ts")))
  .map((entry) => entry.name)
  .sort()
const packageExports = (
  JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    exports: Record<string, { default: string } | string>
  }
).exports

/** The files (relative to the package, `/`-separated) that bundling `code` reads. */
async function bundledInputs(code: string, plugins: Plugin[] = []): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, resolveDir: packageDir, sourcefile: "app.ts", loader: "ts" },
    absWorkingDir: packageDir,
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    metafile: true,
    logLevel: "silent",
    // The peer dependency stays outside, as in an app's bundle it is shared by every provider;
    // so does nodemailer, a dependency only the nodemailer entry imports.
    external: ["@portcullis/core", "@portcullis/core/*", "nodemailer"],
    plugins,
  })
  return Object.keys(result.metafile.inputs).filter((input) => input !== "app.ts" && input !== "<stdin>")
}

const providerFolder = (input: string): string | undefined => /^src\/([^/]+)\//.exec(input)?.[1]

/**
 * The one other folder a provider may bundle, with the reason: Auth.js's `Email()` is its
 * Nodemailer under another id, and its Azure AD is its Microsoft Entra ID, photo included.
 */
const SHARES: Record<string, string> = { email: "nodemailer", "azure-ad": "microsoft-entra-id" }
const ownFolder = (id: string, input: string): boolean => providerFolder(input) === id || providerFolder(input) === SHARES[id]

/**
 * Resolves `@portcullis/providers/<id>` the way Node does, through the `exports` map: to the built
 * file when `dist` has it, else to the source file that `dist` entry is built from.
 */
function resolveThroughExports(): Plugin {
  return {
    name: "auth-providers-exports",
    setup(esbuild) {
      esbuild.onResolve({ filter: /^@portcullis\/providers(\/|$)/ }, ({ path }) => {
        const subpath = `.${path.slice("@portcullis/providers".length)}`
        const target = packageExports[subpath]
        if (typeof target !== "object") return { errors: [{ text: `"${subpath}" is not in the exports map` }] }
        const built = join(packageDir, target.default)
        if (existsSync(built)) return { path: built }
        return { path: join(packageDir, target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")) }
      })
    },
  }
}

describe("bundling one provider", () => {
  it("pulls in no file of another provider folder (src/twitter)", async () => {
    const inputs = await bundledInputs('import Twitter from "./src/twitter/index.ts"\nexport default Twitter\n')
    expect(inputs).toContain("src/twitter/index.ts")
    expect(inputs.filter((input) => providerFolder(input) !== "twitter")).toEqual([])
  })

  it("pulls in only its own folder (and the one it shares, SHARES), for every provider", async () => {
    for (const id of ids) {
      const inputs = await bundledInputs(`export { default } from "./src/${id}/index.ts"\n`)
      expect(
        inputs.filter((input) => !ownFolder(id, input)),
        `bundling src/${id}`,
      ).toEqual([])
    }
  })

  it("carries its own logo and none of the others' (src/github)", async () => {
    const result = await build({
      stdin: { contents: 'export { default } from "./src/github/index.ts"\n', resolveDir: packageDir, sourcefile: "app.ts", loader: "ts" },
      bundle: true,
      format: "esm",
      platform: "neutral",
      write: false,
      logLevel: "silent",
      external: ["@portcullis/core", "@portcullis/core/*"],
    })
    const code = result.outputFiles.map((file) => file.text).join("")
    // The path data of each generated logo, which no bundler rewrites.
    const logos = ids
      .filter((id) => existsSync(join(packageDir, "src", id, "logo.ts")))
      .map((id) => [id, /\bd=\\"([^\\]+)\\"/.exec(readFileSync(join(packageDir, "src", id, "logo.ts"), "utf8"))?.[1] ?? ""] as const)
    expect(logos.length).toBeGreaterThan(40)
    for (const [id, path] of logos) {
      expect(path.length, id).toBeGreaterThan(0)
      if (id === "github") expect(code).toContain(path)
      else expect(code.includes(path), `github's bundle has ${id}'s logo`).toBe(false)
    }
  })

  const mode = existsSync(join(packageDir, "dist", "twitter", "index.js")) ? "dist" : "src"
  it(`resolves @portcullis/providers/twitter to a single self-contained entry (from ${mode})`, async () => {
    const inputs = await bundledInputs(
      'import Twitter from "@portcullis/providers/twitter"\nexport default Twitter\n',
      [resolveThroughExports()],
    )
    // Built, the entry is one file; from source, its folder's own modules (the generated logo) come along.
    expect(inputs).toEqual(mode === "dist" ? ["dist/twitter/index.js"] : ["src/twitter/logo.ts", "src/twitter/index.ts"])
  })

  it("resolves every @portcullis/providers/<id> to a single file (no shared chunk)", async () => {
    for (const id of ids) {
      const inputs = await bundledInputs(`export { default } from "@portcullis/providers/${id}"\n`, [resolveThroughExports()])
      if (mode === "dist") expect(inputs, `@portcullis/providers/${id}`).toEqual([`dist/${id}/index.js`])
      else for (const input of inputs) expect(ownFolder(id, input) && /^src\/[\w-]+\/[\w.-]+\.ts$/.test(input), `@portcullis/providers/${id}: ${input}`).toBe(true)
    }
  })
})
