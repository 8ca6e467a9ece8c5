/**
 * The options reference, read from `AuthConfig` in core's source with the TypeScript compiler:
 * each option's type as written and its TSDoc (summary, `@example`). An option whose type is one
 * of core's option interfaces (`session`, `rateLimit`, `theme`...) or an inline object lists its
 * members too, as `session.maxAge`. Nothing here is written by hand, so the page cannot drift.
 */
import { join } from "node:path"
import ts from "typescript"
import { code, escapeProse, generatedNotice } from "./markdown.js"

/** One option of `AuthConfig`, or a member of one (`path` is dotted). */
export interface OptionEntry {
  path: string
  /** The type as the source writes it. */
  type: string
  /** The TSDoc summary: the option's own, or else its type's. Empty when neither has one. */
  doc: string
  /** The `@example` blocks' text. */
  examples: string[]
  optional: boolean
}

/** The source files whose interfaces are listed member by member when an option's type names one. */
const OPTION_SOURCES = ["types.ts", "model.ts"]

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()
}

function examplesOf(symbol: ts.Symbol, checker: ts.TypeChecker): string[] {
  return symbol
    .getJsDocTags(checker)
    .filter((tag) => tag.name === "example")
    .map((tag) => ts.displayPartsToString(tag.text).trim())
}

/** The interface or object type an option's type names, among core's option types, when it names one. */
function membersOf(node: ts.TypeNode | undefined, checker: ts.TypeChecker): { type: ts.Type; doc: string } | undefined {
  if (node === undefined) return undefined
  if (ts.isTypeLiteralNode(node)) return { type: checker.getTypeFromTypeNode(node), doc: "" }
  // `false | RateLimitOptions`: the one object type among the union's members.
  if (ts.isUnionTypeNode(node)) {
    const objects = node.types.map((member) => membersOf(member, checker)).filter((found) => found !== undefined)
    return objects.length === 1 ? objects[0] : undefined
  }
  if (!ts.isTypeReferenceNode(node) || node.typeArguments !== undefined) return undefined
  const symbol = checker.getSymbolAtLocation(node.typeName)
  const target = symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const declaration = target?.declarations?.[0]
  if (target === undefined || declaration === undefined || !ts.isInterfaceDeclaration(declaration)) return undefined
  if (!OPTION_SOURCES.some((file) => declaration.getSourceFile().fileName.endsWith(`/core/src/${file}`))) return undefined
  return { type: checker.getDeclaredTypeOfSymbol(target), doc: docOf(target, checker) }
}

function collect(type: ts.Type, prefix: string, checker: ts.TypeChecker, entries: OptionEntry[]): void {
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration
    if (declaration === undefined || !ts.isPropertySignature(declaration)) continue
    const path = `${prefix}${property.name}`
    const nested = membersOf(declaration.type, checker)
    entries.push({
      path,
      type: declaration.type?.getText() ?? "unknown",
      doc: docOf(property, checker) || (nested?.doc ?? ""),
      examples: examplesOf(property, checker),
      optional: declaration.questionToken !== undefined,
    })
    if (nested !== undefined) collect(nested.type, `${path}.`, checker, entries)
  }
}

/**
 * Every option of `AuthConfig` in `packages/core/src/types.ts` under `coreDir`, in source order.
 *
 * @throws Error when the file declares no `AuthConfig` interface.
 */
export function readOptions(coreDir: string): OptionEntry[] {
  const file = join(coreDir, "src", "types.ts")
  const program = ts.createProgram([file], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const config = source?.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === "AuthConfig")
  if (config === undefined) throw new Error(`${file} declares no interface AuthConfig`)
  const entries: OptionEntry[] = []
  collect(checker.getTypeAtLocation(config), "", checker, entries)
  return entries
}

/** The options without a word of documentation: each needs TSDoc in core (on the option or its type). */
export function undocumentedOptions(entries: readonly OptionEntry[]): string[] {
  return entries.filter((entry) => entry.doc === "").map((entry) => entry.path)
}

/** The reference page: one heading per option, so each has an anchor and a search entry. */
export function renderOptions(entries: readonly OptionEntry[]): string {
  const sections = entries.map((entry) => {
    const depth = entry.path.split(".").length
    const heading = `${"#".repeat(Math.min(depth + 1, 4))} ${entry.path}`
    const examples = entry.examples.map((example) => (example.startsWith("```") ? example : `\`\`\`ts\n${example}\n\`\`\``))
    return [heading, `${entry.optional ? "Optional" : "Required"} · ${code(entry.type)}`, escapeProse(entry.doc), ...examples].join("\n\n")
  })
  return [
    "---\noutline: [2, 3]\n---",
    generatedNotice("`AuthConfig` in packages/core/src/types.ts"),
    "# Options reference",
    "Every option `Auth()` takes (`AuthConfig` from `@portcullis/core`), with its TSDoc. The integrations (`NextAuth()`, `ExpressAuth()`, `SvelteKitAuth()`) take the same object. An option not set reads its environment variable where one is named.",
    ...sections,
    "",
  ].join("\n\n")
}
