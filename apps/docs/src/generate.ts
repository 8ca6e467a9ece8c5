/**
 * The reference pages, generated from the packages' sources into `site/reference/` before each
 * build: the options, the route table and the provider catalogue.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { readOptions, renderOptions, undocumentedOptions } from "./options.js"
import { readProviders, renderProviders } from "./providers.js"
import { readRoutes, renderRoutes, routeDrift } from "./routes.js"

/** The docs package's folder, and the repository's. */
export const DOCS_DIR = dirname(import.meta.dirname)
export const ROOT = join(DOCS_DIR, "..", "..")

/** A page of the reference: its path under `site/` and its markdown. */
export interface GeneratedPage {
  path: string
  content: string
}

/**
 * The generated pages.
 *
 * @throws Error listing every option without TSDoc and every route without (or with a stale) description.
 */
export async function generatePages(root: string = ROOT): Promise<GeneratedPage[]> {
  const core = join(root, "packages", "core")
  const options = readOptions(core)
  const routes = readRoutes(core)
  const problems = [
    ...undocumentedOptions(options).map((path) => `option \`${path}\` has no TSDoc: document it in packages/core/src (on the option or its type)`),
    ...routeDrift(routes).undocumented.map((route) => `route \`${route}\` has no description: add it to apps/docs/src/route-docs.ts`),
    ...routeDrift(routes).stale.map((route) => `apps/docs/src/route-docs.ts describes \`${route}\`, which core no longer declares`),
    ...routeDrift(routes).wrongLimit.map((route) => `apps/docs/src/route-docs.ts gives \`${route}\` another per-client limit than its flow's \`clientLimit\``),
  ]
  if (problems.length > 0) throw new Error(`The reference cannot be generated:\n- ${problems.join("\n- ")}`)
  return [
    { path: "reference/options.md", content: renderOptions(options) },
    { path: "reference/routes.md", content: renderRoutes(routes) },
    { path: "reference/providers.md", content: renderProviders(await readProviders(join(root, "packages", "providers"))) },
  ]
}

/** Writes the pages into `site/`. */
export async function writePages(): Promise<void> {
  for (const page of await generatePages()) {
    const path = join(DOCS_DIR, "site", page.path)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, page.content)
  }
}
