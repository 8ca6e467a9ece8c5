/**
 * Sets `legacySessionCookies: { until }` in each auth config object of the app, so the browsers
 * holding an Auth.js session cookie stay signed in through the switch, until the longest such
 * session would have expired anyway: the migration date plus the session `maxAge`.
 */
import { dirname, posix } from "node:path"
import ts from "typescript"
import type { TextEdit } from "./edits.js"
import type { ManualStep } from "./migrate-code.js"
import { positionOf, unwrap, type CodeFile } from "./parse.js"

/** Auth.js's default session `maxAge`: 30 days, in seconds. */
export const DEFAULT_SESSION_MAX_AGE = 30 * 24 * 60 * 60

/** The option's name in the config, and Portcullis's one for it. */
export const OPTION = "legacySessionCookies"

/** One config object given the option. */
export interface LegacyCookieWindow {
  /** Relative to the migrated directory, with `/` separators. */
  file: string
  line: number
  /** The ISO date written as `until`. */
  until: string
  /** The session `maxAge` the date adds, in seconds. */
  maxAge: number
  /** Where `maxAge` came from: the config's literal `session.maxAge`, or Auth.js's default. */
  maxAgeFrom: "config" | "default"
}

/** The integrations an auth config is handed to. */
export type Family = "nextjs" | "express" | "sveltekit" | "hono" | "core" | "astro"

/** The module families whose functions take an auth config, by specifier (Auth.js's and ours). */
const FAMILIES: Record<string, Family> = {
  "next-auth": "nextjs",
  "@portcullis/nextjs": "nextjs",
  "@auth/express": "express",
  "@portcullis/express": "express",
  "@auth/sveltekit": "sveltekit",
  "@portcullis/sveltekit": "sveltekit",
  "@hono/auth-js": "hono",
  "@portcullis/hono": "hono",
  "@auth/core": "core",
  "@portcullis/core": "core",
  "auth-astro": "astro",
  "@portcullis/astro": "astro",
}

/** Which argument of which function is the config. */
const CONFIG_ARGUMENT: Record<string, Record<string, number>> = {
  nextjs: { default: 0, NextAuth: 0 },
  express: { ExpressAuth: 0, getSession: 1 },
  sveltekit: { SvelteKitAuth: 0 },
  hono: { initAuthConfig: 0, authHandler: 0 },
  core: { Auth: 1, getSession: 1, getSessionForResponse: 1 },
  astro: { defineConfig: 0 },
}

/** The config types: a literal declared as one of these is a config. */
const CONFIG_TYPES: Record<string, Set<string>> = {
  nextjs: new Set(["NextAuthConfig"]),
  express: new Set(["ExpressAuthConfig"]),
  sveltekit: new Set(["SvelteKitAuthConfig"]),
  hono: new Set(["AuthConfig", "HonoAuthConfig"]),
  core: new Set(["AuthConfig"]),
  astro: new Set(["FullAuthConfig"]),
}

/** What a local name is bound to: a module's export (`"*"` for the namespace) or a relative import. */
interface Binding {
  specifier: string
  imported: string
}

function bindingsOf(source: ts.SourceFile): Map<string, Binding> {
  const bindings = new Map<string, Binding>()
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text
      const clause = node.importClause
      if (clause?.name !== undefined) bindings.set(clause.name.text, { specifier, imported: "default" })
      const named = clause?.namedBindings
      if (named !== undefined && ts.isNamespaceImport(named)) bindings.set(named.name.text, { specifier, imported: "*" })
      if (named !== undefined && ts.isNamedImports(named)) for (const element of named.elements) bindings.set(element.name.text, { specifier, imported: (element.propertyName ?? element.name).text })
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      bindings.set(node.name.text, { specifier: node.moduleReference.expression.text, imported: "*" })
    } else if (ts.isVariableDeclaration(node) && node.initializer !== undefined) {
      let init = unwrap(node.initializer)
      if (ts.isAwaitExpression(init)) init = unwrap(init.expression)
      const isModuleCall = ts.isCallExpression(init) && init.arguments.length === 1 && (init.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(init.expression) && init.expression.text === "require"))
      const [argument] = ts.isCallExpression(init) ? init.arguments : []
      if (!isModuleCall || argument === undefined || !ts.isStringLiteralLike(argument)) return ts.forEachChild(node, visit)
      if (ts.isIdentifier(node.name)) bindings.set(node.name.text, { specifier: argument.text, imported: "*" })
      if (ts.isObjectBindingPattern(node.name)) {
        for (const element of node.name.elements) {
          const key = element.propertyName ?? element.name
          if (ts.isIdentifier(element.name) && ts.isIdentifier(key)) bindings.set(element.name.text, { specifier: argument.text, imported: key.text })
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return bindings
}

/** An object literal found in a file. */
interface Located {
  code: CodeFile
  literal: ts.ObjectLiteralExpression
  /** The integration it is passed to, when found through a call. */
  family?: Family
}

/** Resolves `import ... from "./auth.config"` to a file of the app, as bundlers and Node do. */
function resolveRelative(from: string, specifier: string, files: Map<string, CodeFile>): CodeFile | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined
  const base = posix.join(dirname(from), specifier)
  const extension = posix.extname(base)
  // `./auth.config.js` names `auth.config.ts` in TypeScript written for Node's resolution.
  const stem = [".js", ".jsx", ".mjs", ".cjs"].includes(extension) ? base.slice(0, -extension.length) : base
  const candidates = [base, ...[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"].flatMap((candidate) => [stem + candidate, `${base}/index${candidate}`])]
  for (const candidate of candidates) {
    const found = files.get(candidate)
    if (found !== undefined) return found
  }
  return undefined
}

class ConfigFinder {
  readonly #files: Map<string, CodeFile>
  readonly #bindings = new Map<CodeFile, Map<string, Binding>>()

  constructor(files: readonly CodeFile[]) {
    this.#files = new Map(files.map((code) => [code.file, code]))
  }

  bindings(code: CodeFile): Map<string, Binding> {
    let bindings = this.#bindings.get(code)
    if (bindings === undefined) {
      bindings = bindingsOf(code.source)
      this.#bindings.set(code, bindings)
    }
    return bindings
  }

  /** The object literals an expression evaluates to, followed through variables, imports and lazy-init functions. */
  literals(expression: ts.Expression, code: CodeFile, depth = 0): Located[] {
    if (depth > 8) return []
    const node = unwrap(expression)
    if (ts.isObjectLiteralExpression(node)) return [{ code, literal: node }]
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return this.#returned(node, code, depth)
    if (ts.isIdentifier(node)) return this.#named(node.text, code, depth)
    return []
  }

  #returned(fn: ts.FunctionLikeDeclaration, code: CodeFile, depth: number): Located[] {
    const body = fn.body
    if (body === undefined) return []
    if (!ts.isBlock(body)) return this.literals(body, code, depth + 1)
    const found: Located[] = []
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node)) return
      if (ts.isReturnStatement(node) && node.expression !== undefined) found.push(...this.literals(node.expression, code, depth + 1))
      ts.forEachChild(node, visit)
    }
    ts.forEachChild(body, visit)
    return found
  }

  #named(name: string, code: CodeFile, depth: number): Located[] {
    const local = findDeclaration(code.source, name)
    if (local !== undefined) {
      if (ts.isVariableDeclaration(local)) return local.initializer === undefined ? [] : this.literals(local.initializer, code, depth + 1)
      return this.#returned(local, code, depth)
    }
    const binding = this.bindings(code).get(name)
    const target = binding === undefined ? undefined : resolveRelative(code.file, binding.specifier, this.#files)
    if (binding === undefined || target === undefined) return []
    const exported = findExport(target.source, binding.imported)
    if (exported !== undefined) return this.literals(exported, target, depth + 1)
    // `export function getAuthConfig(c) { return {...} }` in a module of its own, as @hono/auth-js's README writes it.
    const declared = findDeclaration(target.source, binding.imported)
    return declared !== undefined && ts.isFunctionDeclaration(declared) ? this.#returned(declared, target, depth + 1) : []
  }
}

function findDeclaration(source: ts.SourceFile, name: string): ts.VariableDeclaration | ts.FunctionDeclaration | undefined {
  let found: ts.VariableDeclaration | ts.FunctionDeclaration | undefined
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) found = node
    else if (ts.isFunctionDeclaration(node) && node.name?.text === name) found = node
    else ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The expression a module exports as `name` (`"default"` for `export default`). */
function findExport(source: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const statement of source.statements) {
    if (name === "default" && ts.isExportAssignment(statement)) return statement.expression
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
      const element = statement.exportClause.elements.find((candidate) => candidate.name.text === name)
      if (element !== undefined) return ts.factory.createIdentifier((element.propertyName ?? element.name).text)
    }
  }
  const local = findDeclaration(source, name)
  return local !== undefined && ts.isVariableDeclaration(local) ? local.initializer : undefined
}

/** The config objects passed to NextAuth(...), ExpressAuth(...), Auth(request, ...) and getSession(request, ...). */
function passedConfigs(finder: ConfigFinder, code: CodeFile, unresolved: ManualStep[]): Located[] {
  const found: Located[] = []
  const bindings = finder.bindings(code)
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      let binding: Binding | undefined
      let imported: string | undefined
      if (ts.isIdentifier(node.expression)) {
        binding = bindings.get(node.expression.text)
        imported = binding?.imported
      } else if (ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression)) {
        binding = bindings.get(node.expression.expression.text)
        imported = binding?.imported === "*" ? node.expression.name.text : undefined
      }
      const family = binding === undefined ? undefined : FAMILIES[binding.specifier]
      const index = family === undefined || imported === undefined ? undefined : CONFIG_ARGUMENT[family]?.[imported]
      const argument = index === undefined ? undefined : node.arguments[index]
      if (argument !== undefined) {
        const literals = finder.literals(argument, code)
        found.push(...literals.map((located) => ({ ...located, family })))
        if (literals.length === 0) {
          unresolved.push({ file: code.file, ...positionOf(code.source, argument), step: `the auth config passed here could not be followed to its object literal: add ${OPTION}: { until: "<today + session maxAge, ISO date>" } to it by hand so Auth.js's session cookies keep their users signed in` })
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(code.source)
  return found
}

/** The config object literals the app passes to an integration's functions, each with the integration. */
export function configsPassed(files: readonly CodeFile[]): Required<Located>[] {
  const finder = new ConfigFinder(files)
  return files.flatMap((code) => passedConfigs(finder, code, [])).filter((located): located is Required<Located> => located.family !== undefined)
}

/** Config literals declared with a config type: `const c: NextAuthConfig = {...}`, `{...} satisfies AuthConfig`. */
function typedConfigs(finder: ConfigFinder, code: CodeFile): Located[] {
  const bindings = finder.bindings(code)
  const isConfigType = (type: ts.TypeNode | undefined): boolean => {
    if (type === undefined || !ts.isTypeReferenceNode(type)) return false
    const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text
    const binding = bindings.get(ts.isIdentifier(type.typeName) ? name : type.typeName.left.getText(code.source))
    const family = binding === undefined ? undefined : FAMILIES[binding.specifier]
    return family !== undefined && CONFIG_TYPES[family]?.has(binding?.imported === "*" ? name : (binding?.imported ?? "")) === true
  }
  const found: Located[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.initializer !== undefined && isConfigType(node.type)) {
      const literal = unwrap(node.initializer)
      if (ts.isObjectLiteralExpression(literal)) found.push({ code, literal })
    } else if ((ts.isSatisfiesExpression(node) || ts.isAsExpression(node)) && isConfigType(node.type)) {
      const literal = unwrap(node.expression)
      if (ts.isObjectLiteralExpression(literal)) found.push({ code, literal })
    }
    ts.forEachChild(node, visit)
  }
  visit(code.source)
  return found
}

function propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
  const name = property.name
  if (name === undefined) return undefined
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined
}

/** The value of a numeric literal expression (`2592000`, `30 * 24 * 60 * 60`), or undefined. */
function numberOf(expression: ts.Expression): number | undefined {
  const node = unwrap(expression)
  if (ts.isNumericLiteral(node)) return Number(node.text.replaceAll("_", ""))
  if (!ts.isBinaryExpression(node)) return undefined
  const left = numberOf(node.left)
  const right = numberOf(node.right)
  if (left === undefined || right === undefined) return undefined
  switch (node.operatorToken.kind) {
    case ts.SyntaxKind.AsteriskToken: return left * right
    case ts.SyntaxKind.PlusToken: return left + right
    case ts.SyntaxKind.MinusToken: return left - right
    case ts.SyntaxKind.SlashToken: return left / right
    default: return undefined
  }
}

/**
 * The session `maxAge` a config object ends up with: the last `session` property or spread that
 * sets one wins, as in the object at run time. `"unknown"` when it is there but not a literal.
 */
function sessionMaxAge(finder: ConfigFinder, located: Located, depth = 0): number | "unknown" | undefined {
  const properties = [...located.literal.properties].reverse()
  for (const property of properties) {
    if (ts.isSpreadAssignment(property)) {
      if (depth > 4) return "unknown"
      for (const spread of finder.literals(property.expression, located.code).reverse()) {
        const found = sessionMaxAge(finder, spread, depth + 1)
        if (found !== undefined) return found
      }
      continue
    }
    if (propertyName(property) !== "session") continue
    const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined
    const [session] = value === undefined ? [] : finder.literals(value, located.code)
    if (session === undefined) return "unknown"
    const maxAge = session.literal.properties.find((candidate) => propertyName(candidate) === "maxAge")
    if (maxAge === undefined) return DEFAULT_SESSION_MAX_AGE
    const seconds = ts.isPropertyAssignment(maxAge) ? numberOf(maxAge.initializer) : undefined
    return seconds === undefined || !Number.isFinite(seconds) || seconds <= 0 ? "unknown" : seconds
  }
  return undefined
}

/** An ISO date to the second, rounded up: `2026-04-30T12:00:01Z`. */
function isoSeconds(date: Date): string {
  const seconds = new Date(Math.ceil(date.getTime() / 1000) * 1000)
  return `${seconds.toISOString().slice(0, 19)}Z`
}

/** The indentation of the line `position` is on. */
function indentationAt(text: string, position: number): string {
  const lineStart = text.lastIndexOf("\n", position - 1) + 1
  let end = lineStart
  while (text[end] === " " || text[end] === "\t") end++
  return text.slice(lineStart, end)
}

/** The quote character the file writes its module specifiers with. */
function quoteOf(code: CodeFile): string {
  for (const statement of code.source.statements) {
    if (ts.isImportDeclaration(statement)) return statement.moduleSpecifier.getText(code.source).startsWith("'") ? "'" : '"'
  }
  return '"'
}

/** The edits that add the option as the literal's last property, in the literal's own layout. */
function insertOption(located: Located, until: string): TextEdit[] {
  const { code, literal } = located
  const text = code.text
  const quote = quoteOf(code)
  const value = `${OPTION}: { until: ${quote}${until}${quote} }`
  const open = literal.getStart(code.source)
  const close = literal.end - 1
  const last = literal.properties.at(-1)
  const closeIndent = indentationAt(text, close)
  const closeOnOwnLine = text.slice(text.lastIndexOf("\n", close - 1) + 1, close).trim() === "" && text.lastIndexOf("\n", close - 1) > open
  if (!closeOnOwnLine) {
    if (last === undefined) return [{ start: open + 1, end: close, text: ` ${value} ` }]
    return [{ start: last.end, end: last.end, text: `, ${value}` }]
  }
  const indent = last === undefined ? `${closeIndent}  ` : indentationAt(text, last.getStart(code.source))
  const trailingComma = literal.properties.hasTrailingComma
  const lineStart = text.lastIndexOf("\n", close - 1) + 1
  const edits: TextEdit[] = []
  if (last !== undefined && !trailingComma) edits.push({ start: last.end, end: last.end, text: "," })
  const comment = `${indent}// Added by @portcullis/migrate: browsers holding an Auth.js session cookie stay signed in until then.\n`
  edits.push({ start: lineStart, end: lineStart, text: `${comment}${indent}${value}${last === undefined || trailingComma ? "," : ""}\n` })
  return edits
}

/** The option's edits per file, the windows opened, and the configs that need a hand. */
export interface LegacyCookieResult {
  edits: Map<CodeFile, TextEdit[]>
  windows: LegacyCookieWindow[]
  manual: ManualStep[]
}

/**
 * Finds the app's auth config objects (passed to NextAuth, ExpressAuth, Auth or getSession,
 * followed through variables and relative imports, or declared with a config type and not
 * spread into one of those) and adds `legacySessionCookies: { until }` to each that lacks it.
 */
export function addLegacySessionCookies(files: readonly CodeFile[], now: Date): LegacyCookieResult {
  const finder = new ConfigFinder(files)
  const result: LegacyCookieResult = { edits: new Map(), windows: [], manual: [] }
  const passed = files.flatMap((code) => passedConfigs(finder, code, result.manual))
  // A typed config that is spread into a passed one is part of it: the option goes on the outer one.
  const reached = new Set<ts.ObjectLiteralExpression>()
  const reach = (located: Located, depth: number): void => {
    reached.add(located.literal)
    if (depth > 4) return
    for (const property of located.literal.properties) {
      if (ts.isSpreadAssignment(property)) for (const inner of finder.literals(property.expression, located.code)) reach(inner, depth + 1)
    }
  }
  for (const located of passed) reach(located, 0)
  const typed = files.flatMap((code) => typedConfigs(finder, code)).filter((located) => !reached.has(located.literal))
  const seen = new Set<ts.ObjectLiteralExpression>()
  for (const located of [...passed, ...typed]) {
    if (seen.has(located.literal)) continue
    seen.add(located.literal)
    if (located.literal.properties.some((property) => propertyName(property) === OPTION)) continue
    const found = sessionMaxAge(finder, located)
    const maxAge = typeof found === "number" ? found : DEFAULT_SESSION_MAX_AGE
    const until = isoSeconds(new Date(now.getTime() + maxAge * 1000))
    const edits = result.edits.get(located.code) ?? []
    edits.push(...insertOption(located, until))
    result.edits.set(located.code, edits)
    const { line } = positionOf(located.code.source, located.literal)
    result.windows.push({ file: located.code.file, line, until, maxAge, maxAgeFrom: typeof found === "number" ? "config" : "default" })
    if (found === "unknown") {
      result.manual.push({ file: located.code.file, line, column: 1, step: `session.maxAge is not a number literal here, so ${OPTION}.until assumes Auth.js's default of 30 days (${until}): move it later if your sessions last longer` })
    }
  }
  return result
}
