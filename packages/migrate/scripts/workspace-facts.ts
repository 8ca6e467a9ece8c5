/**
 * What the codemod knows about the packages it migrates to, read from this workspace when it is
 * built (tsup) or tested (vitest): each package's version, its entry points, the provider ids,
 * the frameworks it needs (its peer ranges), and the names each entry exports (from its built type declarations). Baked into the bundle as
 * `__WORKSPACE__`, so a release of the codemod writes what the packages of its release offer.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import ts from "typescript"
import type { WorkspaceFacts } from "../src/workspace.js"

const require = createRequire(import.meta.url)
const PACKAGES = ["@portcullis/core", "@portcullis/nextjs", "@portcullis/express", "@portcullis/sveltekit", "@portcullis/hono", "@portcullis/astro", "@portcullis/providers"] as const
/** Entries whose exported names are checked against what an app imports (providers: only the default). */
const CHECKED_ENTRIES = ["@portcullis/core", "@portcullis/core/adapters", "@portcullis/core/errors", "@portcullis/core/jwt", "@portcullis/core/providers", "@portcullis/core/types", "@portcullis/nextjs", "@portcullis/nextjs/react", "@portcullis/express", "@portcullis/sveltekit", "@portcullis/sveltekit/client", "@portcullis/sveltekit/components", "@portcullis/hono", "@portcullis/core/client", "@portcullis/astro", "@portcullis/astro/server", "@portcullis/astro/client", "@portcullis/astro/components"]

interface Manifest {
  version: string
  exports: Record<string, string | { types?: string }>
  peerDependencies?: Record<string, string>
}

function manifestOf(name: string): { dir: string; manifest: Manifest } {
  const file = require.resolve(`${name}/package.json`)
  return { dir: dirname(file), manifest: JSON.parse(readFileSync(file, "utf8")) as Manifest }
}

/** Every name an entry's type declarations export, values and types alike (`default` included). */
function exportedNames(files: Map<string, string>): Record<string, string[]> {
  const program = ts.createProgram([...files.values()], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true, types: [] })
  const checker = program.getTypeChecker()
  const names: Record<string, string[]> = {}
  for (const [entry, file] of files) {
    const source = program.getSourceFile(file)
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (symbol === undefined) throw new Error(`@portcullis/migrate: cannot read the exports of ${entry} from ${file}: build it first`)
    names[entry] = checker.getExportsOfModule(symbol).map((exported) => exported.name).sort()
  }
  return names
}

/** Reads the facts from the built packages of the workspace. */
export function workspaceFacts(): WorkspaceFacts {
  const versions: Record<string, string> = {}
  const entries: Record<string, string[]> = {}
  const peers: Record<string, Record<string, string>> = {}
  const declarationFiles = new Map<string, string>()
  for (const name of PACKAGES) {
    const { dir, manifest } = manifestOf(name)
    versions[name] = manifest.version
    // Our own packages are installed together, in the ranges the codemod writes.
    peers[name] = Object.fromEntries(Object.entries(manifest.peerDependencies ?? {}).filter(([peer]) => !peer.startsWith("@portcullis/")))
    entries[name] = []
    for (const [key, target] of Object.entries(manifest.exports)) {
      const subpath = key === "." ? "" : key.slice(2)
      entries[name].push(subpath)
      const entry = subpath === "" ? name : `${name}/${subpath}`
      if (key === "./package.json") continue
      const types = typeof target === "string" ? undefined : target.types
      if (CHECKED_ENTRIES.includes(entry) && types !== undefined) declarationFiles.set(entry, join(dir, types))
    }
  }
  return { versions, entries, peers, exports: exportedNames(declarationFiles) }
}
