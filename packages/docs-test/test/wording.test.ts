/**
 * One way to say each thing across the documentation a newcomer reads (the READMEs and docs/):
 * a provider is written as the call Auth.js's docs show (`providers: [GitHub()]`), and the local
 * OpenID Provider is the Dev IdP on port 4400, in the docs, on its own pages and in the example.
 */
import { readFileSync, readdirSync, existsSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..", "..")

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.mdx?$/.test(entry.name) && !entry.parentPath.includes("node_modules"))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The READMEs of the repository, its packages and apps, and the pages under docs/. */
const DOCS = [
  join(ROOT, "README.md"),
  ...["packages", "apps"].flatMap((parent) => readdirSync(join(ROOT, parent)).map((name) => join(ROOT, parent, name, "README.md"))),
  ...markdownUnder(join(ROOT, "docs")),
  ...markdownUnder(join(ROOT, "apps", "docs", "site")),
].filter((file) => existsSync(file))

/** The text of each `providers: [...]` array in `text`, with its strings and comments blanked. */
function providerArrays(text: string): string[] {
  const arrays: string[] = []
  for (const match of text.matchAll(/providers:\s*\[/g)) {
    let depth = 0
    let end = match.index + match[0].length - 1
    for (; end < text.length; end++) {
      if (text[end] === "[") depth++
      else if (text[end] === "]" && --depth === 0) break
    }
    arrays.push(text.slice(match.index + match[0].length, end).replace(/\/\/.*$/gm, "").replace(/"[^"\n]*"|'[^'\n]*'|`[^`\n]*`/g, '""'))
  }
  return arrays
}

/** Where the Dev IdP is named or its port given: the docs, its own package and the example app. */
const DEV_IDP_TEXTS = [
  ...DOCS,
  join(ROOT, "apps", "example", ".env.example"),
  ...["packages/dev-idp/src", "apps/example/src"].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
  ),
]

describe("the documentation", () => {
  it("finds the READMEs", () => {
    expect(DOCS.map((file) => relative(ROOT, file))).toEqual(expect.arrayContaining(["README.md", "packages/core/README.md", "packages/nextjs/README.md", "packages/sveltekit/README.md"]))
  })

  it("writes every provider as a call, providers: [GitHub()], as Auth.js's docs do", () => {
    const bare: string[] = []
    for (const file of DOCS) {
      for (const array of providerArrays(readFileSync(file, "utf8"))) {
        // A provider factory named but not called: an identifier in capitals not followed by `(`.
        for (const [name] of array.matchAll(/(?<![\w.])[A-Z]\w*\b(?!\s*[(.])/g)) bare.push(`${relative(ROOT, file)}: ${name}`)
      }
    }
    expect(bare).toEqual([])
  })

  it("names the local OpenID Provider the Dev IdP, with one default port, 4400", () => {
    const found: string[] = []
    for (const file of DEV_IDP_TEXTS) {
      for (const [line, number] of readFileSync(file, "utf8").split("\n").map((text, index) => [text, index + 1] as const)) {
        if (/Demo IdP|DEMO_IDP_PORT|\b4000\b/.test(line)) found.push(`${relative(ROOT, file)}:${String(number)}: ${line.trim()}`)
      }
    }
    expect(found).toEqual([])
  })
})
