/**
 * Completes dist/ after tsup (whose type build clears it): the Svelte components as source (an
 * app's Svelte compiler builds them, as `svelte-package` ships them), and the `providers/<id>`
 * import paths @auth/sveltekit has: one re-export of `@portcullis/providers/<id>` for every provider
 * the installed `@portcullis/providers` has, so code written for Auth.js's package runs as is.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { URL } from "node:url"

cpSync(new URL("../src/components/", import.meta.url), new URL("../dist/components/", import.meta.url), { recursive: true })

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
