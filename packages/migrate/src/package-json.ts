/**
 * Rewrites a package.json's dependencies from Auth.js's packages to ours, by position in the
 * parsed JSON so its layout stays as it was.
 */
import ts from "typescript"
import type { TextEdit } from "./edits.js"
import type { ManualStep } from "./migrate-code.js"
import { isAuthJsAdapter, RENAMED_PACKAGES, V5_GUIDE } from "./modules.js"
import { positionOf } from "./parse.js"
import { peerBlocker } from "./peers.js"
import { workspace } from "./workspace.js"

const SECTIONS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const


/** Our packages that need another of ours installed beside them (their required peers). */
const REQUIRED_PEERS: Readonly<Record<string, readonly string[]>> = {
  "@portcullis/nextjs": ["@portcullis/core"],
  "@portcullis/express": ["@portcullis/core"],
  "@portcullis/sveltekit": ["@portcullis/core", "@portcullis/providers"],
  "@portcullis/hono": ["@portcullis/core"],
  "@portcullis/astro": ["@portcullis/core"],
}

/** The major version a dependency range starts from (`^15.1.0`, `~4.24`, `>=14`), when it reads as one. */
function majorOf(range: string): number | undefined {
  const digits = range.replace(/^[\^~>=v\s]+/u, "").split(".")[0] ?? ""
  const major = Number.parseInt(digits, 10)
  return String(major) === digits ? major : undefined
}

/** The range written for one of our packages: what `npm install` writes for the version the codemod was built with. */
export function rangeOf(name: string): string {
  const version = workspace.versions[name]
  if (version === undefined) throw new Error(`@portcullis/migrate: no version known for ${name}`)
  return `^${version}`
}

/** The outcome for one package.json. */
export interface PackageJsonMigration {
  edits: TextEdit[]
  manual: ManualStep[]
  /** What must change before the migration: a framework version our peer ranges refuse (then nothing may be written). */
  blockers: ManualStep[]
  /** Whether it depended on an Auth.js package the codemod handles. */
  usedAuthJs: boolean
}

/** The version of a package installed for this package.json, when there is one. */
export type InstalledVersion = (name: string) => string | undefined

function keyOf(property: ts.ObjectLiteralElementLike): string | undefined {
  return property.name !== undefined && ts.isStringLiteral(property.name) ? property.name.text : undefined
}

/** Removes one property of a JSON object with the comma that separates it from a neighbour. */
function removeProperty(object: ts.ObjectLiteralExpression, index: number, source: ts.SourceFile): TextEdit {
  const property = object.properties[index]
  const next = object.properties[index + 1]
  const previous = object.properties[index - 1]
  if (property === undefined) throw new Error("@portcullis/migrate: no such property")
  if (next !== undefined) return { start: property.getStart(source), end: next.getStart(source), text: "" }
  if (previous !== undefined) return { start: previous.end, end: property.end, text: "" }
  return { start: object.getStart(source) + 1, end: object.end - 1, text: "" }
}

/** Inserts `"name": "range"` where it sorts among the object's keys, in the object's layout. */
function insertProperty(object: ts.ObjectLiteralExpression, name: string, range: string, source: ts.SourceFile, text: string): TextEdit {
  const entry = `${JSON.stringify(name)}: ${JSON.stringify(range)}`
  const properties = object.properties
  const first = properties[0]
  if (first === undefined) return { start: object.getStart(source) + 1, end: object.end - 1, text: ` ${entry} ` }
  const lineStart = text.lastIndexOf("\n", first.getStart(source) - 1) + 1
  const separator = lineStart > object.getStart(source) ? `,\n${text.slice(lineStart, first.getStart(source))}` : ", "
  const before = properties.find((property) => (keyOf(property) ?? "") > name)
  if (before !== undefined) return { start: before.getStart(source), end: before.getStart(source), text: `${entry}${separator}` }
  const last = properties[properties.length - 1] ?? first
  return { start: last.end, end: last.end, text: `${separator}${entry}` }
}

/**
 * Each peer of the packages of ours this package.json will have that the app's version of it
 * (declared, or installed where its own range keeps it) keeps npm from installing.
 */
function blockersOf(file: string, source: ts.JsonSourceFile, sections: readonly ts.ObjectLiteralExpression[], ours: ReadonlySet<string>, anchor: ts.Node, installed: InstalledVersion): ManualStep[] {
  const specs = new Map<string, { spec: string; node: ts.Node }>()
  for (const property of sections.flatMap((section) => section.properties)) {
    const name = keyOf(property)
    if (name !== undefined && !specs.has(name) && ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)) specs.set(name, { spec: property.initializer.text, node: property })
  }
  const blockers: ManualStep[] = []
  const checked = new Set<string>()
  for (const by of [...ours].sort()) {
    for (const [name, range] of Object.entries(workspace.peers[by] ?? {})) {
      if (checked.has(name)) continue
      checked.add(name)
      const found = specs.get(name)
      const version = installed(name)
      const step = peerBlocker({ name, range, by, ...(found === undefined ? {} : { declared: found.spec }), ...(version === undefined ? {} : { installed: version }) })
      if (step !== undefined) blockers.push({ file, ...positionOf(source, found?.node ?? anchor), step })
    }
  }
  return blockers
}

/**
 * Replaces `next-auth`, `@auth/core`, `@auth/express` and `@auth/sveltekit` in every dependency section with ours
 * (the range of the release the codemod was built with), and adds the packages of ours the code
 * imports or that ours need beside them (`@portcullis/core` with `@portcullis/nextjs`) where the
 * first Auth.js package was. Auth.js's adapters (`@auth/*-adapter`) stay.
 *
 * Lists as blockers each framework the app has in a version outside our packages' peer ranges
 * (declared, or installed where the app's own range keeps it).
 *
 * @param used the Portcullis packages the code under this package.json imports, once migrated
 * @param installed the version installed for this package.json of a package, if any
 */
export function migratePackageJson(file: string, text: string, used: ReadonlySet<string>, installed: InstalledVersion = () => undefined): PackageJsonMigration {
  const source = ts.parseJsonText(file, text)
  const result: PackageJsonMigration = { edits: [], manual: [], blockers: [], usedAuthJs: false }
  const root = source.statements[0]?.expression
  if (root === undefined || !ts.isObjectLiteralExpression(root)) return result
  const sections = new Map<string, ts.ObjectLiteralExpression>()
  for (const property of root.properties) {
    const key = keyOf(property)
    if (key !== undefined && (SECTIONS as readonly string[]).includes(key) && ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(property.initializer)) {
      sections.set(key, property.initializer)
    }
  }
  const present = new Set([...sections.values()].flatMap((section) => section.properties.map(keyOf)))
  const wanted = new Set<string>()
  let home: ts.ObjectLiteralExpression | undefined
  let anchor: ts.ObjectLiteralElementLike | undefined
  for (const section of sections.values()) {
    section.properties.forEach((property, index) => {
      const name = keyOf(property)
      if (name === undefined || !ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.initializer)) return
      const ours = RENAMED_PACKAGES[name]
      if (ours === undefined) {
        if (name.startsWith("@next-auth/") && name.endsWith("-adapter")) {
          result.manual.push({ file, ...positionOf(source, property), step: `${name} is next-auth v4's adapter package: replace it with Auth.js's ${name.replace("@next-auth/", "@auth/")}, which works with Portcullis unchanged` })
        } else if (name.startsWith("@auth/") && !isAuthJsAdapter(name)) {
          result.manual.push({ file, ...positionOf(source, property), step: `${name}: Portcullis has no counterpart; it offers @portcullis/core, @portcullis/express and @portcullis/nextjs` })
        }
        return
      }
      result.usedAuthJs = true
      anchor ??= property
      home ??= section
      wanted.add(ours)
      if (name === "next-auth" && majorOf(property.initializer.text) === 4) {
        result.manual.push({ file, ...positionOf(source, property), step: `next-auth ${property.initializer.text} is next-auth v4: Portcullis follows next-auth v5's API, so the code needs v5's changes too (${V5_GUIDE})` })
      }
      if (present.has(ours)) {
        result.edits.push(removeProperty(section, index, source))
        return
      }
      present.add(ours)
      const name_ = property.name
      result.edits.push({ start: name_.getStart(source) + 1, end: name_.end - 1, text: ours })
      result.edits.push({ start: property.initializer.getStart(source) + 1, end: property.initializer.end - 1, text: rangeOf(ours) })
    })
  }
  if (home === undefined || anchor === undefined) return result
  for (const name of used) wanted.add(name)
  for (const name of [...wanted]) for (const peer of REQUIRED_PEERS[name] ?? []) wanted.add(peer)
  result.blockers.push(...blockersOf(file, source, [...sections.values()], wanted, anchor, installed))
  for (const name of [...wanted].sort()) {
    if (present.has(name) || workspace.versions[name] === undefined) continue
    result.edits.push(insertProperty(home, name, rangeOf(name), source, text))
  }
  return result
}
