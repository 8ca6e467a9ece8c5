/**
 * The documentation site's getting-started pages (`apps/docs/site/getting-started/`) hold the
 * framework apps `snippets.test.ts` runs: every file of each app is marked there, a file marked
 * both there and in a README is the same text in both, and no code block on those pages escapes
 * the run but shell commands.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mergeSnippets, readSnippets, unmarkedBlocks, type Snippet } from "./snippets.js"
import { README_FILES, SITE_PAGES } from "./sources.js"

const site = SITE_PAGES.flatMap(readSnippets)
const readmes = README_FILES.flatMap(readSnippets)
const name = (snippet: Snippet): string => `${snippet.framework}/${snippet.file}`

describe("the site's getting-started pages", () => {
  it("mark every file of the README's apps, so the site alone is a complete app per framework", () => {
    expect(site.map(name).sort()).toEqual(expect.arrayContaining(readmes.map(name).sort()))
  })

  it("show no code block that the test does not run, shell commands aside", () => {
    expect(SITE_PAGES.flatMap(unmarkedBlocks)).toEqual([])
  })

  it("agree with the READMEs wherever both mark a file", () => {
    expect(() => mergeSnippets([readmes, site])).not.toThrow()
  })
})

describe("mergeSnippets", () => {
  const one = (text: string, where: string): Snippet => ({ framework: "express", file: "server.ts", text, where })

  it("keeps one copy of a file two sources mark alike", () => {
    expect(mergeSnippets([[one("a\n", "README.md:1")], [one("a\n", "site.md:1")]])).toEqual([one("a\n", "README.md:1")])
  })

  it("fails naming both places when two sources mark a file differently", () => {
    expect(() => mergeSnippets([[one("a\n", "README.md:1")], [one("b\n", "site.md:9")]])).toThrow(/express\/server\.ts differs: README\.md:1 and site\.md:9/)
  })
})

describe("unmarkedBlocks", () => {
  it("finds a fenced block with no marker, and leaves shell blocks and marked ones", () => {
    const page = join(import.meta.dirname, "fixtures", "unmarked.md")
    expect(unmarkedBlocks(page)).toEqual([`${page}:12`])
  })
})
