/** The size an app pays for `Auth` plus one provider: bundled, minified and gzipped with esbuild. */
import { readFileSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { gzipSync } from "node:zlib"
import { build, type Plugin } from "esbuild"

/** One part of a bundle, told by the resolved path of each module in it. */
export interface BundlePart {
  label: string
  test: RegExp
}

/** The two apps measured: one signing in with X (OAuth 2.0), one with a credentials form only. */
export type App = "oauth" | "credentials"

/** An implementation's packages: `core` exports `Auth`, `providers` has one entry per provider id. */
export interface Implementation {
  core: string
  providers: string
}

export const OURS: Implementation = { core: "@portcullis/core", providers: "@portcullis/providers" }
/** Auth.js's own `@auth/core` (installed as `authjs-core`), which carries its providers. */
export const PEER: Implementation = { core: "authjs-core", providers: "authjs-core/providers" }

/** The app's one provider, written the same way for both implementations (the same documented API). */
const PROVIDER: Record<App, { id: string; call: string }> = {
  oauth: { id: "twitter", call: `Provider({ clientId: "id", clientSecret: "secret" })` },
  credentials: {
    id: "credentials",
    call: `Provider({ credentials: { password: { label: "Password", type: "password" } }, authorize: async ({ password }) => (password === "secret" ? { id: "1" } : null) })`,
  },
}

function entry(impl: Implementation, app: App): string {
  const { id, call } = PROVIDER[app]
  return `import { Auth } from "${impl.core}"
import Provider from "${impl.providers}/${id}"
export default (request) => Auth(request, { providers: [${call}], secret: "s" })`
}

/** Leaves out every module whose resolved path one of `tests` matches (its import stays, its code goes). */
function leaveOut(tests: readonly RegExp[]): Plugin {
  return {
    name: "leave-out",
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, async (args) => {
        if (tests.length === 0 || args.pluginData === "inner") return undefined
        const { resolveDir, kind, importer } = args
        const resolved = await plugin.resolve(args.path, { resolveDir, kind, importer, pluginData: "inner" })
        return tests.some((test) => test.test(resolved.path)) ? { path: args.path, external: true } : undefined
      })
    },
  }
}

/**
 * Bytes of the app's bundle that load with it, minified and gzipped, with `alias`ed imports and
 * the modules `leaveOut` matches left out. Built with code splitting, as app bundlers do: a
 * chunk only reached by a dynamic `import()` (code a provider fetches on first use, such as
 * X's OAuth 1.0a flow) is not counted, since an app that never takes that path never loads it.
 */
export async function gzippedSize(
  impl: Implementation,
  app: App,
  options: { alias?: Record<string, string>; leaveOut?: readonly RegExp[]; withLazy?: boolean } = {},
): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "bench-bundle-"))
  try {
    const input = join(import.meta.dirname, `.bundle-entry-${basename(dir)}.mjs`)
    await writeFile(input, entry(impl, app))
    try {
      const result = await build({
        entryPoints: { app: input },
        bundle: true,
        splitting: true,
        outdir: dir,
        minify: true,
        format: "esm",
        // Node's built-ins stay external, as in any server bundle (the peer imports "crypto").
        platform: "node",
        target: "es2022",
        write: false,
        logLevel: "silent",
        alias: options.alias ?? {},
        plugins: [leaveOut(options.leaveOut ?? [])],
      })
      return gzipSync(loadedWithEntry(result.outputFiles, join(dir, "app.js"), options.withLazy === true), { level: 9 }).length
    } finally {
      await rm(input, { force: true })
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * The entry chunk and every chunk it imports statically, transitively, concatenated; with
 * `withLazy`, the chunks its dynamic `import()`s reach too (everything the app can ever load).
 */
function loadedWithEntry(files: readonly { path: string; text: string }[], entryPath: string, withLazy: boolean): string {
  const byPath = new Map(files.map((file) => [file.path, file.text]))
  const seen = new Set<string>()
  const visit = (path: string): string => {
    if (seen.has(path)) return ""
    seen.add(path)
    const text = byPath.get(path) ?? ""
    let out = text
    // Static imports only: `import{...}from"./chunk.js"` or `import"./chunk.js"`, never `import("./chunk.js")`.
    for (const match of text.matchAll(/import\s*(?:[\w$*{}\s,]*from\s*)?"(\.\/[^"]+)"/g)) {
      out += visit(join(dirname(path), match[1] ?? ""))
    }
    if (withLazy) for (const match of text.matchAll(/import\("(\.\/[^"]+)"\)/g)) out += visit(join(dirname(path), match[1] ?? ""))
    return out
  }
  return visit(entryPath)
}

/**
 * Where the gzipped bytes go: the parts are left out one after another, each credited with
 * what leaving it out saved, so the figures add up to the whole. A part's figure includes
 * whatever only it imports that no earlier part took.
 */
export async function bundleBreakdown(
  impl: Implementation,
  app: App,
  parts: readonly BundlePart[],
  alias?: Record<string, string>,
): Promise<{ label: string; gzipped: number }[]> {
  const out: { label: string; gzipped: number }[] = []
  let previous = await gzippedSize(impl, app, { alias })
  for (let index = 0; index < parts.length; index++) {
    const size = await gzippedSize(impl, app, { alias, leaveOut: parts.slice(0, index + 1).map((part) => part.test) })
    out.push({ label: parts[index]?.label ?? "", gzipped: previous - size })
    previous = size
  }
  out.push({ label: "everything else (the entry, imports left standing)", gzipped: previous })
  return out
}

const CORE = new URL("../../packages/core/", import.meta.url)
const CORE_SOURCE = new URL("src/", CORE).pathname

/**
 * Our bundle built from core's sources, so each module can be told apart (the published build
 * merges modules into chunks): every entry of core's `exports` map (`./dist/<path>.js`) resolves
 * to `src/<path>.ts`, so an entry a provider imports (`@portcullis/core/oauth`, `/oauth1`) is
 * read from source too, and an entry added later is covered without a change here.
 */
export const OUR_SOURCE_ALIAS: Record<string, string> = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync(new URL("package.json", CORE), "utf8")) as { exports: Record<string, string | { default?: string }> }).exports).flatMap(
    ([key, target]) => {
      const file = /^\.\/dist\/(.+)\.js$/.exec(typeof target === "string" ? target : (target.default ?? ""))?.[1]
      return file === undefined ? [] : [[`@portcullis/core${key.slice(1)}`, `${CORE_SOURCE}${file}.ts`]]
    },
  ),
)

/**
 * Every package but the implementation itself (pnpm's store paths hold two `node_modules`
 * segments). Ours resolves to the workspace's `packages/core`; the peer is Auth.js's own
 * `@auth/core` (installed as `authjs-core`).
 */
const OTHER_PACKAGES = /\/node_modules\/(?!\.pnpm\/)(?!@auth\/core\/)/

/**
 * Our parts, shared pieces first: a part is credited with what only it imports that no earlier
 * part took, and a provider now carries its flow (`@portcullis/core/oauth`), so the flows come
 * before the provider and the shared sign-in ending before the flows that end in it.
 */
export const OUR_PARTS: readonly BundlePart[] = [
  { label: "oauth4webapi", test: /\/node_modules\/oauth4webapi\// },
  { label: "other dependencies", test: OTHER_PACKAGES },
  { label: "core: sessions, cookies, CSRF, crypto", test: /\/core\/src\/(session\/|http\/cookies|http\/csrf|crypto\/)/ },
  { label: "core: default pages", test: /\/core\/src\/pages\// },
  { label: "core: the shared sign-in ending, account linking, adapter calls", test: /\/core\/src\/(sign-in\/|outbound\/store\.|adapters\.)/ },
  { label: "core: configuration checks", test: /\/core\/src\/(config|providers)\// },
  { label: "core: OAuth and OIDC flow (src/oauth)", test: /\/core\/src\/oauth\// },
  { label: "core: OAuth 1.0a flow (src/oauth1), carried by the twitter provider", test: /\/core\/src\/oauth1\// },
  { label: "core: email and credentials flows", test: /\/core\/src\/(email\/|credentials\/|pages\/email|actions\/verify-request)/ },
  { label: "the provider (twitter or credentials)", test: /\/packages\/providers\/dist\/(twitter|credentials)\// },
  { label: "core: routes, errors, the rest", test: /\/core\/src\// },
]

export const PEER_PARTS: readonly BundlePart[] = [
  { label: "oauth4webapi", test: /\/node_modules\/oauth4webapi\// },
  { label: "jose", test: /\/node_modules\/jose\// },
  { label: "preact, preact-render-to-string", test: /\/node_modules\/preact(-render-to-string)?\// },
  { label: "other dependencies", test: OTHER_PACKAGES },
  { label: "the provider (twitter or credentials)", test: /\/@auth\/core\/providers\/(twitter|credentials)\./ },
  { label: "@auth/core's own code", test: /\/@auth\/core\// },
]
