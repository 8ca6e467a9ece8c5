/**
 * `@portcullis/migrate`: moves an Auth.js app (next-auth v5, `@auth/core`, `@auth/express`, `@auth/sveltekit`) to
 * Portcullis. The `portcullis-migrate` command runs {@link migrate} and prints its report.
 *
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, extname, join, posix, relative, sep } from "node:path"
import { clientAddressSteps } from "./client-address.js"
import { applyEdits, type TextEdit } from "./edits.js"
import { httpIssuerSteps } from "./http-issuers.js"
import { addLegacySessionCookies, type LegacyCookieWindow } from "./legacy-cookies.js"
import { migrateCode, type ManualStep } from "./migrate-code.js"
import { migratePackageJson } from "./package-json.js"
import { CODE_EXTENSIONS, parseCodeFiles, type ParseError } from "./parse.js"
import { unifiedDiff } from "./unified-diff.js"

export type { LegacyCookieWindow } from "./legacy-cookies.js"
export type { ManualStep } from "./migrate-code.js"
export type { ParseError } from "./parse.js"

/** Folders never read: installed packages, build output, version control. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(["node_modules", ".next", "dist", ".git", ".turbo", ".vercel", ".astro"])

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** The app's directory (a monorepo's root works too: every package.json below it is read). */
  dir: string
  /** Computes everything and writes nothing. */
  dryRun?: boolean
  /** The migration date that `legacySessionCookies.until` counts from. Defaults to now. */
  now?: Date
}

/** A file the migration changes. */
export interface ChangedFile {
  /** Relative to `dir`, with `/` separators. */
  file: string
  /** A unified diff of the change. */
  diff: string
}

/** What {@link migrate} did, or would do. */
export interface MigrationReport {
  /** The files changed (or, in a dry run, that would be), in path order. */
  changed: ChangedFile[]
  /** What could not be migrated, with what to do; in path order. */
  manual: ManualStep[]
  /** What was migrated but reads differently now (the version in our package.json), to check; in path order. */
  notes: ManualStep[]
  /**
   * What must change before the migration: a framework version our packages' peer ranges refuse
   * (Svelte 4, Next.js 15), with the step to take. When there is one, nothing is written.
   */
  blockers: ManualStep[]
  /** Each config object given `legacySessionCookies`, with its date. */
  legacySessionCookies: LegacyCookieWindow[]
  /** Files the parser refused. When there is one, nothing is written. */
  parseErrors: ParseError[]
  /** Whether the changes were written. */
  written: boolean
}

interface FoundFiles {
  code: { file: string; text: string; extension: string }[]
  manifests: { file: string; text: string }[]
}

function findFiles(root: string): FoundFiles {
  const found: FoundFiles = { code: [], manifests: [] }
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name)
      const file = relative(root, path).split(sep).join("/")
      // Symbolic links are not followed: they lead to installed packages or out of the app.
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) walk(path)
      else if (entry.isFile() && entry.name === "package.json") found.manifests.push({ file, text: readFileSync(path, "utf8") })
      else if (entry.isFile() && CODE_EXTENSIONS.has(extname(entry.name))) found.code.push({ file, text: readFileSync(path, "utf8"), extension: extname(entry.name) })
    }
  }
  walk(root)
  return found
}

/** The package.json a file belongs to: the nearest one in its folder or above. */
function ownerOf(file: string, manifests: ReadonlySet<string>): string | undefined {
  let dir = posix.dirname(file)
  for (;;) {
    const candidate = dir === "." ? "package.json" : `${dir}/package.json`
    if (manifests.has(candidate)) return candidate
    if (dir === ".") return undefined
    dir = posix.dirname(dir)
  }
}

/** The version of `name` that Node.js would load from `dir`: the nearest `node_modules/<name>` in it or above. */
function installedVersion(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    try {
      const { version } = JSON.parse(readFileSync(join(at, "node_modules", name, "package.json"), "utf8")) as { version?: unknown }
      if (typeof version === "string") return version
    } catch {
      // Not installed here (or unreadable): look further up, as Node.js does.
    }
    if (dirname(at) === at) return undefined
  }
}

function jsonError(file: string, text: string): ParseError | undefined {
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    return { file, line: 1, column: 1, message: error instanceof Error ? error.message : String(error) }
  }
}

function byPosition(a: ManualStep, b: ManualStep): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column
}

/**
 * Migrates the app in `dir`: rewrites Auth.js module references in `.ts .tsx .mts .cts .js .jsx
 * .mjs .cjs` files, the `<script>` blocks of `.svelte` and `.vue` components and the frontmatter
 * and `<script>` blocks of `.astro` components (imports, re-exports,
 * `require()`, `import()`, `declare module`, `/// <reference types>`, `import("...")` types,
 * `jest.mock`/`vi.mock`) and the dependencies of every package.json, and adds
 * `legacySessionCookies` to the auth config objects. Running it again changes nothing. When a
 * framework version of the app is outside our packages' peer ranges (Svelte 4 for
 * `@portcullis/sveltekit`), it writes nothing and lists the step to take first in `blockers`.
 *
 * @example
 * ```ts
 * const report = migrate({ dir: "./my-app", dryRun: true })
 * for (const { diff } of report.changed) process.stdout.write(diff)
 * ```
 * @throws Error when `dir` cannot be read or a file cannot be written.
 */
export function migrate(options: MigrateOptions): MigrationReport {
  const found = findFiles(options.dir)
  const { parsed, errors } = parseCodeFiles(found.code)
  errors.push(...found.manifests.flatMap(({ file, text }) => jsonError(file, text) ?? []))
  const report: MigrationReport = { changed: [], manual: [], notes: [], blockers: [], legacySessionCookies: [], parseErrors: errors, written: false }
  if (errors.length > 0) return report

  const edits = new Map<string, TextEdit[]>()
  const texts = new Map<string, string>()
  const manifestFiles = new Set(found.manifests.map(({ file }) => file))
  const usedBy = new Map<string, Set<string>>()
  let usedAuthJs = false
  for (const code of parsed) {
    texts.set(code.file, code.text)
    const migration = migrateCode(code)
    edits.set(code.file, migration.edits)
    report.manual.push(...migration.manual)
    report.notes.push(...migration.notes)
    usedAuthJs ||= migration.usedAuthJs
    const owner = ownerOf(code.file, manifestFiles)
    if (owner === undefined) continue
    const used = usedBy.get(owner) ?? new Set<string>()
    for (const name of migration.packages) used.add(name)
    usedBy.set(owner, used)
  }
  for (const { file, text } of found.manifests) {
    texts.set(file, text)
    const migration = migratePackageJson(file, text, usedBy.get(file) ?? new Set(), (name) => installedVersion(dirname(join(options.dir, file)), name))
    edits.set(file, migration.edits)
    report.manual.push(...migration.manual)
    report.blockers.push(...migration.blockers)
    usedAuthJs ||= migration.usedAuthJs
  }
  // npm would refuse to install the migrated app: leave it as it is, and say what comes first.
  if (report.blockers.length > 0) {
    report.manual = []
    report.notes = []
    return report
  }
  // An app with nothing of Auth.js's (or already migrated) gets no window for Auth.js's cookies.
  if (usedAuthJs) {
    const cookies = addLegacySessionCookies(parsed, options.now ?? new Date())
    for (const [code, added] of cookies.edits) edits.get(code.file)?.push(...added)
    report.legacySessionCookies = cookies.windows
    report.manual.push(...cookies.manual, ...parsed.flatMap(httpIssuerSteps), ...clientAddressSteps(parsed))
  }

  for (const [file, fileEdits] of edits) {
    const before = texts.get(file) ?? ""
    const after = applyEdits(before, fileEdits)
    if (after === before) continue
    report.changed.push({ file, diff: unifiedDiff(file, before, after) })
    if (options.dryRun !== true) writeFileSync(join(options.dir, file), after)
  }
  report.changed.sort((a, b) => (a.file < b.file ? -1 : 1))
  report.manual.sort(byPosition)
  report.notes.sort(byPosition)
  report.written = options.dryRun !== true && report.changed.length > 0
  return report
}
