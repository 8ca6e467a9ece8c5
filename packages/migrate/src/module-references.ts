/** Every place a file names a module: the nodes whose text the codemod rewrites. */
import ts from "typescript"
import { unwrap, visitAll } from "./parse.js"

/** How a module is named at one place in the code. */
export type ReferenceForm = "import" | "export" | "require" | "import()" | "declare module" | "import type" | "mock"

/** One module specifier in the code, and the names taken from it there (when they can be read). */
export interface ModuleReference {
  form: ReferenceForm
  /** The string literal holding the specifier. */
  literal: ts.StringLiteralLike
  /** Names imported or re-exported from it (`"default"` for a default import), each with its node. */
  names: { name: string; node: ts.Node }[]
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

/** Every module reference in `source`, in source order. */
export function moduleReferences(source: ts.SourceFile): ModuleReference[] {
  const references: ModuleReference[] = []
  visitAll(source, (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      references.push({ form: "import", literal: node.moduleSpecifier, names: importedNames(node.importClause) })
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause !== undefined && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((element) => ({ name: (element.propertyName ?? element.name).text, node: element })) : []
      references.push({ form: "export", literal: node.moduleSpecifier, names })
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      references.push({ form: "require", literal: node.moduleReference.expression, names: [] })
    } else if (ts.isCallExpression(node)) {
      const literal = stringArgument(node)
      if (literal === undefined) return
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) references.push({ form: "import()", literal, names: destructuredNames(node) })
      else if (isRequire(node)) references.push({ form: "require", literal, names: destructuredNames(node) })
      else if (isMock(node)) references.push({ form: "mock", literal, names: [] })
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      references.push({ form: "declare module", literal: node.name, names: [] })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      let qualifier = node.qualifier
      while (qualifier !== undefined && ts.isQualifiedName(qualifier)) qualifier = qualifier.left
      const names = qualifier === undefined ? [] : [{ name: qualifier.text, node: qualifier as ts.Node }]
      references.push({ form: "import type", literal: node.argument.literal, names })
    }
  })
  return references
}
