/**
 * Where the framework apps are written: the READMEs, and the documentation site's getting-started
 * pages (SvelteKit's page is not among them yet: its blocks need a SvelteKit project to run).
 */
import { join } from "node:path"

const ROOT = join(import.meta.dirname, "..", "..", "..")

export const README_FILES = [join(ROOT, "README.md"), join(ROOT, "packages", "nextjs", "README.md")]

export const SITE_PAGES = ["index", "node-http", "express", "hono", "nextjs"].map((page) => join(ROOT, "apps", "docs", "site", "getting-started", `${page}.md`))
