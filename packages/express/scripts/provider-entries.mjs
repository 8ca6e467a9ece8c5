/**
 * Writes the `providers/<id>` import paths Auth.js's `@auth/express` has into dist/: one re-export of
 * `@portcullis/providers/<id>` for every provider the installed `@portcullis/providers` has, so code
 * written for Auth.js's package runs as is. Run after tsup (whose type build clears dist's
 * .d.ts files).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { URL } from "node:url"

const manifest = JSON.parse(readFileSync(new URL("../node_modules/@portcullis/providers/package.json", import.meta.url), "utf8"))
const ids = Object.keys(manifest.exports)
  .filter((key) => key.startsWith("./") && key !== "./package.json")
  .map((key) => key.slice(2))
const dir = new URL("../dist/providers/", import.meta.url)
mkdirSync(dir, { recursive: true })
for (const id of ids) {
  const body = `export * from "@portcullis/providers/${id}"\nexport { default } from "@portcullis/providers/${id}"\n`
  writeFileSync(new URL(`${id}.js`, dir), body)
  writeFileSync(new URL(`${id}.d.ts`, dir), body)
}
