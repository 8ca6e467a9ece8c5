// Builds core's JavaScript: Rollup over src/, each module compiled by esbuild. Everything
// `Auth`'s entry loads at start goes into one chunk (a cold start opens one file, not thirty);
// what loads on first use (a flow, the pages, a rarely used route) stays in chunks of its own;
// the browser entries and the error classes keep their own small graph. Types come from tsup (`tsup --dts-only`).
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"
import { rollup } from "rollup"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]

/** The published entries (`exports` of package.json), by the name of their file in dist/. */
export const ENTRIES = {
  index: "src/index.ts",
  adapters: "src/adapters.ts",
  "public-errors": "src/public-errors.ts",
  "providers/index": "src/providers/index.ts",
  client: "src/client.ts",
  sessions: "src/sessions.ts",
  "session/jwt": "src/session/jwt.ts",
  types: "src/types.ts",
  "oauth/index": "src/oauth/index.ts",
  "email/index": "src/email/index.ts",
  "credentials/index": "src/credentials/index.ts",
  "oauth1/index": "src/oauth1/index.ts",
  "webauthn/index": "src/webauthn/index.ts",
  "webauthn/client": "src/webauthn/client.ts",
  "password/index": "src/password/index.ts",
  "client-address": "src/client-address.ts",
  integration: "src/integration.ts",
}
/**
 * Entries that must stay small: the browser's, and the error classes (which browser code imports
 * too). Their modules never join the server's start-up chunk, so importing them never loads it.
 */
const LIGHT = ["src/client.ts", "src/webauthn/client.ts", "src/public-errors.ts"]

/** The modules `from` reaches through static imports. */
function staticClosure(getModuleInfo, from) {
  const seen = new Set()
  const stack = [from]
  while (stack.length > 0) {
    const id = stack.pop()
    if (seen.has(id)) continue
    seen.add(id)
    for (const next of getModuleInfo(id)?.importedIds ?? []) stack.push(next)
  }
  return seen
}

const typescript = {
  name: "typescript",
  async resolveId(source, importer) {
    if (importer === undefined || !source.startsWith(".") || !source.endsWith(".js")) return null
    const candidate = join(dirname(importer), `${source.slice(0, -3)}.ts`)
    return (await this.resolve(candidate, importer, { skipSelf: true })) ?? null
  },
  async transform(code, id) {
    if (!id.endsWith(".ts")) return null
    const result = await transform(code, { loader: "ts", format: "esm", target: "es2022", sourcemap: true, sourcefile: id })
    return { code: result.code, map: result.map }
  },
}

/** Removes the JavaScript an earlier build left in `dir` (its chunk names change with their content). */
function removeOldJavaScript(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name))
  }
}

export async function bundle() {
  let startup
  let light
  const build = await rollup({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
    external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)) || id.startsWith("node:"),
    plugins: [typescript],
    onwarn(warning, warn) {
      if (warning.code === "EMPTY_BUNDLE") return
      warn(warning)
    },
  })
  removeOldJavaScript(join(root, "dist"))
  await build.write({
    dir: join(root, "dist"),
    format: "es",
    sourcemap: true,
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      if (startup === undefined) {
        startup = staticClosure(getModuleInfo, join(root, ENTRIES.index))
        light = new Set(LIGHT.flatMap((file) => [...staticClosure(getModuleInfo, join(root, file))]))
      }
      if (!startup.has(id) || id === join(root, ENTRIES.index)) return undefined
      // Named here too: Rollup pulls a manual chunk's unnamed dependencies into it.
      return light.has(id) ? "errors" : "auth"
    },
  })
  await build.close()
  return relative(process.cwd(), join(root, "dist"))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()
