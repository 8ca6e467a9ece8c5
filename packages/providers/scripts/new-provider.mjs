#!/usr/bin/env node
// Scaffolds a provider folder from scripts/template/, writes its changeset, regenerates the
// lists, and prints what is left to fill in.
//
//   pnpm new-provider <id> [--name "Display Name"] [--brand PascalCaseName]
import { spawnSync } from "node:child_process"
import console from "node:console"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

import { simpleIcon } from "./generate.mjs"

const scriptsDir = dirname(fileURLToPath(import.meta.url))
const packageDir = join(scriptsDir, "..")
const repoDir = join(packageDir, "..", "..")

// Names the package already uses for something else: the root entry, the test kit, core's own providers.
const RESERVED = new Set(["index", "testing", "passkey", "webauthn"])

function fail(message) {
  console.error(`new-provider: ${message}`)
  process.exit(1)
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { name: { type: "string" }, brand: { type: "string" } },
})
const id = positionals[0]
if (id === undefined || positionals.length > 1) fail('usage: pnpm new-provider <id> [--name "Display Name"] [--brand PascalCaseName]')
if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail(`"${id}" is not a kebab-case id (lowercase letters, digits, single dashes)`)
if (RESERVED.has(id)) fail(`"${id}" is reserved`)

const folder = join(packageDir, "src", id)
const changeset = join(repoDir, ".changeset", `add-${id}-provider.md`)
if (existsSync(folder)) fail(`src/${id}/ already exists`)
if (existsSync(changeset)) fail(`${relative(repoDir, changeset)} already exists`)

const words = id.split("-").map((word) => word[0].toUpperCase() + word.slice(1))
const brand = values.brand ?? words.join("")
const name = values.name ?? words.join(" ")
if (!/^[A-Z][A-Za-z0-9]*$/.test(brand)) fail(`"${brand}" is not a PascalCase identifier: pass --brand, e.g. --brand FortyTwoSchool`)
if (name.includes('"') || name.includes("\\")) fail("--name must not contain quotes or backslashes")

const fill = (template) =>
  readFileSync(join(scriptsDir, "template", template), "utf8")
    .replaceAll("__ID__", id)
    .replaceAll("__BRAND__", brand)
    .replaceAll("__NAME__", name)

/** A brand Simple Icons carries gets its logo on the sign-in button: the generator writes `logo.ts`. */
const withLogo = (source) =>
  simpleIcon(id) === undefined
    ? source
    : source
        .replace(/^(import .* from "@portcullis\/core\/providers"\n)/m, '$1import logo from "./logo.js"\n')
        .replace("style: { brandColor:", "style: { logo, brandColor:")

mkdirSync(folder)
for (const file of ["index.ts", "fixture.json", "index.test.ts"]) {
  const content = fill(`${file}.tmpl`)
  writeFileSync(join(folder, file), file === "index.ts" ? withLogo(content) : content)
}
writeFileSync(changeset, `---\n"@portcullis/providers": minor\n---\n\nAdd the ${name} provider (\`@portcullis/providers/${id}\`).\n`)
console.log(`created src/${id}/{index.ts,fixture.json,index.test.ts} and ${relative(repoDir, changeset)}`)

const generated = spawnSync(process.execPath, [join(scriptsDir, "generate.mjs")], { stdio: "inherit" })
if (generated.status !== 0) console.error("new-provider: the generator failed (above); fix it and run `pnpm generate`")

console.log(`
Now fill in (every TODO(new-provider) marker must go: test/contract.test.ts fails while one is left):
  1. src/${id}/index.ts: the header (where to register the app, quirks users must know, the @see
     docs URL); the real endpoints and default scope, or type "oidc" + issuer; checks, client auth
     method and quirks only if the provider needs them; the brand color; ${brand}Profile with the
     real userinfo / ID-token fields; the profile() mapping to { id, name, email, image }.
  2. src/${id}/fixture.json: a realistic sample of that response, with made-up values.
  3. src/${id}/index.test.ts: the user the fixture maps to, written out by hand.
  4. .changeset/add-${id}-provider.md: check the provider's name.
  5. Check it, from the repository root: pnpm check-provider ${id} (regenerates, then runs only this provider's tests)
`)
