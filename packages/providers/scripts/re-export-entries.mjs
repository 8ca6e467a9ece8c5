#!/usr/bin/env node
/**
 * Writes the `providers/<id>` import paths an integration package has (as Auth.js's
 * `@auth/express` and `@auth/sveltekit` have them) into that package's dist/: one re-export of
 * `@portcullis/providers/<id>` for every provider this package exports, so code written for
 * Auth.js's package runs as is. The integrations' builds run it after tsup (whose type build
 * clears dist's .d.ts files); it is build tooling, not published.
 *
 *   node ../providers/scripts/re-export-entries.mjs [packageDir]   (default: the current directory)
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import process from "node:process"
import { URL, fileURLToPath, pathToFileURL } from "node:url"

/** The provider ids this package exports (`github`, ...). */
function providerIds() {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  return Object.keys(manifest.exports)
    .filter((key) => key.startsWith("./") && key !== "./package.json")
    .map((key) => key.slice(2))
}

/** Writes `<packageDir>/dist/providers/<id>.js` and `.d.ts` for every provider. */
export function writeProviderReExports(packageDir) {
  const dir = pathToFileURL(resolve(packageDir, "dist", "providers") + "/")
  mkdirSync(dir, { recursive: true })
  for (const id of providerIds()) {
    const body = `export * from "@portcullis/providers/${id}"\nexport { default } from "@portcullis/providers/${id}"\n`
    writeFileSync(new URL(`${id}.js`, dir), body)
    writeFileSync(new URL(`${id}.d.ts`, dir), body)
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeProviderReExports(process.argv[2] ?? process.cwd())
}
