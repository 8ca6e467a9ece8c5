/**
 * `auth-astro`, the community integration of Auth.js for Astro: where its modules go in
 * `@portcullis/astro`, and the code of an Astro component for TypeScript's parser.
 */
import type { SpecifierMigration } from "./modules.js"
import { svelteScript } from "./svelte.js"

/** auth-astro's entries and ours of the same names: the integration with `defineConfig`, `getSession`, the browser helpers, the components. */
const ENTRIES: Readonly<Record<string, string>> = {
  "": "@portcullis/astro",
  server: "@portcullis/astro/server",
  client: "@portcullis/astro/client",
  components: "@portcullis/astro/components",
}

/** auth-astro's virtual module holding the app's config, and the integration's module of ours that holds it. */
const CONFIG_MODULES: Readonly<Record<string, string>> = { "auth:config": "portcullis:config" }

/**
 * What becomes of an `auth-astro` module (or its `auth:config`), or `undefined` for any other.
 *
 * @example
 * ```ts
 * migrateAstroSpecifier("auth-astro/server", "server") // { kind: "rewrite", to: "@portcullis/astro/server" }
 * ```
 */
export function migrateAstroSpecifier(specifier: string, subpath: string): SpecifierMigration | undefined {
  const config = CONFIG_MODULES[specifier]
  if (config !== undefined) return { kind: "rewrite", to: config }
  if (specifier !== "auth-astro" && !specifier.startsWith("auth-astro/")) return undefined
  const ours = ENTRIES[subpath]
  if (ours !== undefined) return { kind: "rewrite", to: ours }
  return { kind: "manual", step: `"${specifier}" has no counterpart in @portcullis/astro (its entries: "@portcullis/astro", "/server", "/client", "/components", "/providers/<id>"): replace what it provides by hand` }
}

/** Where an Astro component's frontmatter is: between a `---` fence on its first line and the next. */
function frontmatter(text: string): { start: number; end: number } | undefined {
  const open = /^\s*---[^\S\r\n]*\r?\n/u.exec(text)
  if (open === null) return undefined
  const close = /^---[^\S\r\n]*$/mu.exec(text.slice(open[0].length))
  if (close === null) return undefined
  return { start: open[0].length, end: open[0].length + close.index }
}

/**
 * The code of an Astro component in place: its frontmatter and its `<script>` blocks (both
 * TypeScript, as Astro compiles them), everything else replaced by spaces, line breaks kept, so
 * positions in it are positions in the component.
 */
export function astroScript(text: string): string {
  const fence = frontmatter(text)
  const keep = (from: number, to: number, source: string): string => source.slice(from, to)
  const blank = (value: string): string => value.replace(/[^\r\n]/g, " ")
  // The frontmatter is code, not markup: blanked before the markup's script blocks are looked for.
  const markup = fence === undefined ? text : blank(text.slice(0, fence.end)) + text.slice(fence.end)
  const scripts = svelteScript(markup).code
  return fence === undefined ? scripts : blank(text.slice(0, fence.start)) + keep(fence.start, fence.end, text) + scripts.slice(fence.end)
}
