/**
 * `@portcullis/migrate`: moves an Auth.js app (next-auth v5, `@auth/core`, `@auth/express`, `@auth/sveltekit`) to
 * Portcullis. The `portcullis-migrate` command runs {@link migrate} and prints its report.
 *
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { extname, join, posix, relative, sep } from "node:path"
import { applyEdits, type TextEdit } from "./edits.js"
import { httpIssuerSteps } from "./http-issuers.js"
import { addLegacySessionCookies, type LegacyCookieWindow } from "./legacy-cookies.js"
import { migrateCode, type ManualStep } from "./migrate-code.js"
import { migratePackageJson } from "./package-json.js"
import { parseCodeFiles, SCRIPT_KINDS, type ParseError } from "./parse.js"
import { unifiedDiff } from "./unified-diff.js"

export type { LegacyCookieWindow } from "./legacy-cookies.js"
export type { ManualStep } from "./migrate-code.js"
export type { ParseError } from "./parse.js"

/** Folders never read: installed packages, build output, version control. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(["node_modules", ".next", "dist", ".git", ".turbo", ".vercel"])

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
      else if (entry.isFile() && extname(entry.name) in SCRIPT_KINDS) found.code.push({ file, text: readFileSync(path, "utf8"), extension: extname(entry.name) })
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

function jsonError(file: string, text: string): ParseError | undefined {
  try {
    JSON.parse(text)
    return undefined
  } catch (error) {
    return { file, line: 1, column: 1, message: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Migrates the app in `dir`: rewrites Auth.js module references in `.ts .tsx .js .jsx .mjs .cjs`
 * files (imports, re-exports, `require()`, `import()`, `declare module`, `import("...")` types,
 * `jest.mock`/`vi.mock`) and the dependencies of every package.json, and adds
 * `legacySessionCookies` to the auth config objects. Running it again changes nothing.
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
  const report: MigrationReport = { changed: [], manual: [], legacySessionCookies: [], parseErrors: errors, written: false }
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
    usedAuthJs ||= migration.usedAuthJs
    const owner = ownerOf(code.file, manifestFiles)
    if (owner === undefined) continue
    const used = usedBy.get(owner) ?? new Set<string>()
    for (const name of migration.packages) used.add(name)
    usedBy.set(owner, used)
  }
  for (const { file, text } of found.manifests) {
    texts.set(file, text)
    const migration = migratePackageJson(file, text, usedBy.get(file) ?? new Set())
    edits.set(file, migration.edits)
    report.manual.push(...migration.manual)
    usedAuthJs ||= migration.usedAuthJs
  }
  // An app with nothing of Auth.js's (or already migrated) gets no window for Auth.js's cookies.
  if (usedAuthJs) {
    const cookies = addLegacySessionCookies(parsed, options.now ?? new Date())
    for (const [code, added] of cookies.edits) edits.get(code.file)?.push(...added)
    report.legacySessionCookies = cookies.windows
    report.manual.push(...cookies.manual, ...parsed.flatMap(httpIssuerSteps))
  }

  for (const [file, fileEdits] of edits) {
    const before = texts.get(file) ?? ""
    const after = applyEdits(before, fileEdits)
    if (after === before) continue
    report.changed.push({ file, diff: unifiedDiff(file, before, after) })
    if (options.dryRun !== true) writeFileSync(join(options.dir, file), after)
  }
  report.changed.sort((a, b) => (a.file < b.file ? -1 : 1))
  report.manual.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column))
  report.written = options.dryRun !== true && report.changed.length > 0
  return report
}
