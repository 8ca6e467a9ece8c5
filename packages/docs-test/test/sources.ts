/**
 * Where the framework apps are written: the READMEs, and the documentation site's getting-started
 * pages.
 */
import { join } from "node:path"

const ROOT = join(import.meta.dirname, "..", "..", "..")

export const README_FILES = [join(ROOT, "README.md"), join(ROOT, "packages", "nextjs", "README.md"), join(ROOT, "packages", "hono", "README.md"), join(ROOT, "packages", "fastify", "README.md"), join(ROOT, "packages", "react-router", "README.md"), join(ROOT, "packages", "tanstack-start", "README.md"), join(ROOT, "packages", "astro", "README.md")]

export const SITE_PAGES = ["index", "node-http", "express", "hono", "fastify", "nextjs", "react-router", "tanstack-start", "astro", "sveltekit"].map((page) => join(ROOT, "apps", "docs", "site", "getting-started", `${page}.md`))
