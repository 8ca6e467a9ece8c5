/** The rewrites and manual steps of one code file's module references. */
import ts from "typescript"
import type { TextEdit } from "./edits.js"
import { migrateSpecifier, portcullisPackageOf, RENAMED_PACKAGES, splitSpecifier, V5_GUIDE } from "./modules.js"
import { computedReferences, moduleReferences, type ComputedReference } from "./module-references.js"
import { positionAt, positionOf, type CodeFile } from "./parse.js"
import { exportsOf } from "./workspace.js"

/** Something the codemod could not migrate, and what to do instead. */
export interface ManualStep {
  /** Relative to the migrated directory, with `/` separators. */
  file: string
  line: number
  column: number
  step: string
}

/** The outcome for one code file. */
export interface CodeMigration {
  edits: TextEdit[]
  manual: ManualStep[]
  /** What was rewritten but now means something else (the version read from our package.json). */
  notes: ManualStep[]
  /** Whether the file referred to an Auth.js module (migrated or not). */
  usedAuthJs: boolean
  /** The Portcullis packages the file imports once migrated. */
  packages: Set<string>
}

/** next-auth v4 names an app may import from "next-auth", with what replaces them. */
const V4_NAMES: Record<string, string> = {
  getServerSession: `getServerSession is next-auth v4's API: call auth() from the NextAuth(...) result of your auth.ts (${V5_GUIDE})`,
  unstable_getServerSession: `unstable_getServerSession is next-auth v4's API: call auth() from the NextAuth(...) result of your auth.ts (${V5_GUIDE})`,
  NextAuthOptions: `NextAuthOptions is next-auth v4's type: type the config as NextAuthConfig (${V5_GUIDE})`,
}

/** Where next-auth v4 apps keep their pages-router handler. */
function isPagesRouterHandler(file: string): boolean {
  const parts = file.split("/")
  const name = parts.at(-1) ?? ""
  return parts.includes("pages") && parts.at(-2) === "auth" && name.slice(0, name.lastIndexOf(".")) === "[...nextauth]"
}

/** The local names bound to next-auth's default export (`NextAuth`) in a file. */
function nextAuthDefaultNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    if (!["next-auth", "@portcullis/nextjs"].includes(statement.moduleSpecifier.text)) continue
    const clause = statement.importClause
    if (clause?.name !== undefined) names.add(clause.name.text)
    if (clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings)) {
      for (const element of clause.namedBindings.elements) if ((element.propertyName ?? element.name).text === "NextAuth") names.add(element.name.text)
    }
  }
  return names
}

/** next-auth v4's handler shapes: `export default NextAuth(options)` and `NextAuth(req, res, options)`. */
function v4HandlerSteps(code: CodeFile): ManualStep[] {
  const steps: ManualStep[] = []
  const step = `next-auth v4's pages-router handler: call NextAuth(config) once in auth.ts (export const { handlers, auth, signIn, signOut } = NextAuth(config)) and serve it from app/api/auth/[...nextauth]/route.ts with export const { GET, POST } = handlers (${V5_GUIDE})`
  const names = nextAuthDefaultNames(code.source)
  for (const statement of code.source.statements) {
    if (!ts.isExportAssignment(statement) || statement.isExportEquals === true) continue
    const expression = statement.expression
    if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression) && names.has(expression.expression.text)) {
      steps.push({ file: code.file, ...positionOf(code.source, statement), step })
    }
  }
  if (steps.length === 0 && isPagesRouterHandler(code.file)) steps.push({ file: code.file, line: 1, column: 1, step })
  return steps
}

/** The step for a module name computed at run time that names an Auth.js package, or `undefined` when it names none. */
function computedStep(reference: ComputedReference): string | undefined {
  const { pkg, subpath } = splitSpecifier(reference.prefix)
  const ours = RENAMED_PACKAGES[pkg]
  if (ours === undefined || !(reference.prefix === pkg || reference.prefix.startsWith(`${pkg}/`))) return undefined
  if (reference.complete) {
    const migration = migrateSpecifier(reference.prefix)
    const to = migration?.kind === "rewrite" ? `change it to "${migration.to}"` : migration?.step ?? ""
    return `this module name is "${reference.prefix}", held in a variable, which the codemod does not rewrite: ${to}`
  }
  const providers = pkg === "@auth/express" || pkg === "@auth/sveltekit" ? `${ours}/providers/<id>` : "@portcullis/providers/<id>"
  const target = subpath.startsWith("providers/") ? `${pkg}/providers/<id> is ${providers} (check that Portcullis has each id it can take)` : `${pkg} is ${ours}, see @portcullis/migrate's README for each subpath`
  return `this module name starts "${reference.prefix}" and is completed at run time, so the codemod cannot rewrite it: name the Portcullis module by hand (${target})`
}

/**
 * Rewrites every Auth.js module reference of a file to ours, keeping the quotes and everything
 * around them, and lists what has no counterpart: a module, a name our module does not export,
 * next-auth v4's handler.
 */
export function migrateCode(code: CodeFile): CodeMigration {
  const result: CodeMigration = { edits: [], manual: [], notes: [], usedAuthJs: false, packages: new Set() }
  for (const reference of moduleReferences(code.source)) {
    const specifier = reference.specifier
    // Steps point at the opening quote, where the specifier's literal starts.
    const position = positionAt(code.source, reference.start - 1)
    const migration = migrateSpecifier(specifier)
    const target = migration?.kind === "rewrite" ? migration.to : specifier
    const ours = portcullisPackageOf(target)
    if (ours !== undefined) result.packages.add(ours)
    if (migration === undefined) continue
    result.usedAuthJs = true
    if (migration.kind === "manual") {
      result.manual.push({ file: code.file, ...position, step: migration.step })
      continue
    }
    // The text between the quotes: the quote style (and a template literal's backticks) stays.
    result.edits.push({ start: reference.start, end: reference.end, text: migration.to })
    if (migration.note !== undefined) result.notes.push({ file: code.file, ...position, step: migration.note })
    const known = exportsOf(migration.to)
    for (const { name, node } of reference.names) {
      const changed = migration.names?.[name]
      // A name ours exports with another meaning is rewritten and noted; one ours lacks is a step.
      if (changed !== undefined) (known?.has(name) === true ? result.notes : result.manual).push({ file: code.file, ...positionOf(code.source, node), step: changed })
      if (changed !== undefined || known === undefined || known.has(name)) continue
      const step = V4_NAMES[name] ?? `"${name === "default" ? "the default export" : name}" is imported from "${specifier}", but ${migration.to} does not export it: replace it by hand`
      result.manual.push({ file: code.file, ...positionOf(code.source, node), step })
    }
  }
  for (const reference of computedReferences(code.source)) {
    const step = computedStep(reference)
    if (step === undefined) continue
    result.usedAuthJs = true
    result.manual.push({ file: code.file, ...positionOf(code.source, reference.argument), step })
  }
  if (result.usedAuthJs || nextAuthDefaultNames(code.source).size > 0) result.manual.push(...v4HandlerSteps(code))
  return result
}
