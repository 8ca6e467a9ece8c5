/** Every place a file names a module: the nodes whose text the codemod rewrites. */
import ts from "typescript"
import { unwrap, visitAll } from "./parse.js"

/** How a module is named at one place in the code. */
export type ReferenceForm = "import" | "export" | "require" | "import()" | "declare module" | "import type" | "mock" | "reference types"

/** One module specifier in the code, and the names taken from it there (when they can be read). */
export interface ModuleReference {
  form: ReferenceForm
  specifier: string
  /** Where the specifier's text is, between its quotes. */
  start: number
  end: number
  /** Names imported or re-exported from it (`"default"` for a default import), each with its node. */
  names: { name: string; node: ts.Node }[]
}

/** A module loaded by `import()` or `require()` whose name is computed: what can be read of it. */
export interface ComputedReference {
  /** The argument of the call. */
  argument: ts.Expression
  /** The name's text as far as it is known before the first value computed at run time. */
  prefix: string
  /** Whether `prefix` is the whole name (a constant of the file). */
  complete: boolean
}

/** `jest.mock("x")`, `vi.mock("x")`, `vi.importActual("x")`...: a test double named by module. */
const MOCK_METHODS = new Set(["mock", "doMock", "unmock", "doUnmock", "requireActual", "requireMock", "importActual", "importMock"])

function stringArgument(call: ts.CallExpression): ts.StringLiteralLike | undefined {
  const [first] = call.arguments
  return first !== undefined && ts.isStringLiteralLike(first) ? first : undefined
}

function isRequire(call: ts.CallExpression): boolean {
  return ts.isIdentifier(call.expression) && call.expression.text === "require" && call.arguments.length === 1
}

function isMock(call: ts.CallExpression): boolean {
  const callee = call.expression
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ["jest", "vi"].includes(callee.expression.text) && MOCK_METHODS.has(callee.name.text)
}

/** Names a `const { a, b: c } = require("x")` (or `await import("x")`) takes. */
function destructuredNames(call: ts.Expression): { name: string; node: ts.Node }[] {
  let outer: ts.Node = call
  while (ts.isAwaitExpression(outer.parent) || ts.isParenthesizedExpression(outer.parent)) outer = outer.parent
  const declaration = outer.parent
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer === undefined || unwrap(declaration.initializer) !== outer || !ts.isObjectBindingPattern(declaration.name)) return []
  return declaration.name.elements.flatMap((element) => {
    const key = element.propertyName ?? element.name
    return ts.isIdentifier(key) || ts.isStringLiteral(key) ? [{ name: key.text, node: element }] : []
  })
}

function importedNames(clause: ts.ImportClause | undefined): { name: string; node: ts.Node }[] {
  if (clause === undefined) return []
  const names: { name: string; node: ts.Node }[] = []
  if (clause.name !== undefined) names.push({ name: "default", node: clause.name })
  if (clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings)) {
    for (const element of clause.namedBindings.elements) names.push({ name: (element.propertyName ?? element.name).text, node: element })
  }
  return names
}

/** Every module reference in `source`, in source order, triple-slash `types` references first. */
export function moduleReferences(source: ts.SourceFile): ModuleReference[] {
  // `/// <reference types="..." />` lives in a comment: the parser keeps its name's position apart from the tree.
  const references: ModuleReference[] = source.typeReferenceDirectives.map(({ fileName, pos, end }) => ({ form: "reference types", specifier: fileName, start: pos, end, names: [] }))
  const add = (form: ReferenceForm, literal: ts.StringLiteralLike, names: { name: string; node: ts.Node }[]): void => {
    references.push({ form, specifier: literal.text, start: literal.getStart(source) + 1, end: literal.end - 1, names })
  }
  visitAll(source, (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add("import", node.moduleSpecifier, importedNames(node.importClause))
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause !== undefined && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((element) => ({ name: (element.propertyName ?? element.name).text, node: element })) : []
      add("export", node.moduleSpecifier, names)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add("require", node.moduleReference.expression, [])
    } else if (ts.isCallExpression(node)) {
      const literal = stringArgument(node)
      if (literal === undefined) return
      if (isDynamicImport(node)) add("import()", literal, destructuredNames(node))
      else if (isRequire(node)) add("require", literal, destructuredNames(node))
      else if (isMock(node)) add("mock", literal, [])
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      add("declare module", node.name, [])
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      let qualifier = node.qualifier
      while (qualifier !== undefined && ts.isQualifiedName(qualifier)) qualifier = qualifier.left
      const names = qualifier === undefined ? [] : [{ name: qualifier.text, node: qualifier as ts.Node }]
      add("import type", node.argument.literal, names)
    }
  })
  return references
}

function isDynamicImport(call: ts.CallExpression): boolean {
  return call.expression.kind === ts.SyntaxKind.ImportKeyword
}

/** The `const` of this file named `name` and its initializer, when there is exactly one. */
function constantOf(source: ts.SourceFile, name: string): ts.Expression | undefined {
  const found: ts.Expression[] = []
  visitAll(source, (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer !== undefined && (ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const) !== 0) found.push(node.initializer)
  })
  return found.length === 1 ? found[0] : undefined
}

/** What can be read of a computed module name: a literal, a template's head, a `+` chain, a `const` of the file. */
function staticPrefix(source: ts.SourceFile, expression: ts.Expression, depth = 0): { prefix: string; complete: boolean } | undefined {
  const node = unwrap(expression)
  if (ts.isStringLiteralLike(node)) return { prefix: node.text, complete: true }
  if (ts.isTemplateExpression(node)) return { prefix: node.head.text, complete: false }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = staticPrefix(source, node.left, depth)
    if (left === undefined || !left.complete) return left
    const right = staticPrefix(source, node.right, depth)
    return right === undefined ? { prefix: left.prefix, complete: false } : { prefix: left.prefix + right.prefix, complete: right.complete }
  }
  if (ts.isIdentifier(node) && depth < 4) {
    const initializer = constantOf(source, node.text)
    return initializer === undefined ? undefined : staticPrefix(source, initializer, depth + 1)
  }
  return undefined
}

/**
 * Every `import()` and `require()` of `source` whose module name is not a literal, with what can
 * be read of the name: the codemod cannot rewrite those, and lists the ones that name Auth.js.
 */
export function computedReferences(source: ts.SourceFile): ComputedReference[] {
  const references: ComputedReference[] = []
  visitAll(source, (node) => {
    if (!ts.isCallExpression(node) || stringArgument(node) !== undefined || !(isDynamicImport(node) || isRequire(node))) return
    const [argument] = node.arguments
    if (argument === undefined) return
    const known = staticPrefix(source, argument)
    if (known !== undefined) references.push({ argument, ...known })
  })
  return references
}
