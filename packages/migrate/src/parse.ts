/** Reads code with TypeScript's parser: every module reference the codemod rewrites is a node of its tree. */
import ts from "typescript"
import { astroScript } from "./astro.js"
import { svelteScript } from "./svelte.js"

/** The file extensions the codemod reads, with how TypeScript parses each. */
export const SCRIPT_KINDS: Readonly<Record<string, ts.ScriptKind>> = {
  ".ts": ts.ScriptKind.TS,
  ".mts": ts.ScriptKind.TS,
  ".cts": ts.ScriptKind.TS,
  ".tsx": ts.ScriptKind.TSX,
  ".js": ts.ScriptKind.JS,
  ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS,
  ".jsx": ts.ScriptKind.JSX,
}

/** The extensions the codemod reads: scripts, Svelte and Vue components for their `<script>` blocks, Astro components for their frontmatter and scripts. */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([...Object.keys(SCRIPT_KINDS), ".svelte", ".vue", ".astro"])

/** A file's text as the parser reads it, and how: a component's script blocks in place, or the file itself. */
function parserInput(text: string, extension: string): { code: string; kind: ts.ScriptKind | undefined } {
  if (extension === ".astro") return { code: astroScript(text), kind: ts.ScriptKind.TS }
  if (extension !== ".svelte" && extension !== ".vue") return { code: text, kind: SCRIPT_KINDS[extension] }
  const { code, typescript } = svelteScript(text)
  return { code, kind: typescript ? ts.ScriptKind.TS : ts.ScriptKind.JS }
}

/** A file the parser refused, with its first complaint. */
export interface ParseError {
  /** Relative to the migrated directory, with `/` separators. */
  file: string
  line: number
  column: number
  message: string
}

/** A parsed code file. */
export interface CodeFile {
  /** Relative to the migrated directory, with `/` separators. */
  file: string
  /** The file's text; `source` has the same positions (a Svelte component's markup blanked). */
  text: string
  source: ts.SourceFile
}

/**
 * Parses the code files; a file with a syntax error (by TypeScript's rules for its extension:
 * type annotations in a `.js` file count) comes back as a {@link ParseError}.
 */
export function parseCodeFiles(files: readonly { file: string; text: string; extension: string }[]): { parsed: CodeFile[]; errors: ParseError[] } {
  const parsed = files.map(({ file, text, extension }) => {
    const { code, kind } = parserInput(text, extension)
    return { file, text, source: ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, kind) }
  })
  const byName = new Map(parsed.map((entry) => [entry.file, entry.source]))
  const options: ts.CompilerOptions = { noLib: true, noResolve: true, allowJs: true, noEmit: true, types: [] }
  // A program only to ask for each file's syntactic diagnostics, the parser's public report.
  const host = ts.createCompilerHost(options)
  host.getSourceFile = (name) => byName.get(name)
  host.fileExists = (name) => byName.has(name)
  const program = ts.createProgram({ rootNames: [...byName.keys()], options, host })
  const errors: ParseError[] = []
  for (const { file, source } of parsed) {
    const [first] = program.getSyntacticDiagnostics(source)
    if (first === undefined) continue
    const { line, character } = source.getLineAndCharacterOfPosition(first.start)
    errors.push({ file, line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, "\n") })
  }
  return { parsed, errors }
}

/** The position of `node` as a 1-based line and column. */
export function positionOf(source: ts.SourceFile, node: ts.Node): { line: number; column: number } {
  return positionAt(source, node.getStart(source))
}

/** A character offset of `source` as a 1-based line and column. */
export function positionAt(source: ts.SourceFile, offset: number): { line: number; column: number } {
  const { line, character } = source.getLineAndCharacterOfPosition(offset)
  return { line: line + 1, column: character + 1 }
}

/** Strips parentheses, `as`, `satisfies`, `!` and `<T>` casts from an expression. */
export function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isNonNullExpression(current) || ts.isTypeAssertionExpression(current)) {
    current = current.expression
  }
  return current
}

/** Visits every node of the tree, JSDoc type expressions included (`@type {import("next-auth").Session}`). */
export function visitAll(source: ts.SourceFile, visit: (node: ts.Node) => void): void {
  const walk = (node: ts.Node): void => {
    visit(node)
    for (const doc of ts.getJSDocCommentsAndTags(node)) if (doc.parent === node) walk(doc)
    ts.forEachChild(node, walk)
  }
  walk(source)
}
