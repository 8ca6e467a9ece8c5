/**
 * The client entry on React 18.2, which the peer range accepts as Next.js 16's own does: it takes
 * from `react` only what React 18.2 exports, and an app's JSX with it compiles against the oldest
 * 18.2 typings (@types/react 18.2.0, where a JSX component may not return a bare `ReactNode`).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const require = createRequire(import.meta.url)
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url))
const CLIENT_ENTRY = join(PACKAGE_DIR, "src", "react.ts")

/** The value names `src/react.ts` imports from `react`. */
function reactImports(): string[] {
  const source = ts.createSourceFile(CLIENT_ENTRY, readFileSync(CLIENT_ENTRY, "utf8"), ts.ScriptTarget.Latest, true)
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== "react") return []
    const bindings = statement.importClause?.namedBindings
    if (statement.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword || bindings === undefined || !ts.isNamedImports(bindings)) return []
    return bindings.elements.filter((element) => !element.isTypeOnly).map((element) => (element.propertyName ?? element.name).text)
  })
}

const APP = `import { SessionProvider, useSession } from "./react.js"
function Status() {
  const { data, status, update } = useSession()
  return <p onClick={() => void update()}>{status} {data?.user?.name}</p>
}
export const Page = () => <SessionProvider session={null} refetchInterval={60}><Status /></SessionProvider>
`

describe("React 18.2", () => {
  it("is inside the peer range, as in Next.js 16's own", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { peerDependencies: Record<string, string> }
    expect(manifest.peerDependencies.react?.split("||").map((range) => range.trim())).toEqual(["^18.2.0", "^19.0.0"])
  })

  it("exports every name the client entry imports from react (no React 19 API such as use or useActionState)", () => {
    const react18 = require("react-18") as Record<string, unknown> & { version: string }
    expect(react18.version).toBe("18.2.0")
    const names = reactImports()
    expect(names.length).toBeGreaterThan(0)
    expect(names.filter((name) => !(name in react18))).toEqual([])
  })

  it("type-checks an app's SessionProvider and useSession against @types/react 18.2.0", () => {
    const typesDir = dirname(require.resolve("@types/react-18/package.json"))
    const appFile = join(PACKAGE_DIR, "src", "react-18-app.tsx")
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      jsx: ts.JsxEmit.ReactJSX,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: [],
      paths: { react: [join(typesDir, "index.d.ts")], "react/jsx-runtime": [join(typesDir, "jsx-runtime.d.ts")] },
    }
    const host = ts.createCompilerHost(options)
    const readFile = host.readFile.bind(host)
    host.readFile = (file) => (file === appFile ? APP : readFile(file))
    const fileExists = host.fileExists.bind(host)
    host.fileExists = (file) => file === appFile || fileExists(file)
    const program = ts.createProgram({ rootNames: [appFile], options, host })
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    expect(errors).toEqual([])
  })
})
