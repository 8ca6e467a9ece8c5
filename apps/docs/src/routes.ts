/**
 * The route table, read from core's source: the actions `Auth()` dispatches (the `GET` and `POST`
 * tables in `packages/core/src/index.ts`) and the routes each sign-in flow adds (`routes` of its
 * `SignInFlow`). What each route does is written in `route-docs.ts`, keyed the same way; a route
 * the source has and the docs lack, or the reverse, fails the generator and the tests.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { ROUTE_DOCS, type RouteDoc } from "./route-docs.js"
import { cell, code, escapeProse, generatedNotice } from "./markdown.js"

/** One method of one action (or flow route) as the source declares it, e.g. `POST sessions`. */
export interface RouteKey {
  method: "GET" | "POST"
  /** The action (`session`) or the flow's route name (`webauthn-options`). */
  name: string
  /** Where it is declared: `index.ts` for `Auth()`'s own, the flow's file otherwise. */
  source: string
  /** The per-client rule a flow's route declares it counts against (`clientLimit`). */
  clientLimit?: string
}

const key = (route: Pick<RouteKey, "method" | "name">): string => `${route.method} ${route.name}`

function propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
  const name = property.name
  if (name === undefined) return undefined
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text
  return undefined
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true)
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node)
  node.forEachChild((child) => {
    walk(child, visit)
  })
}

/** The keys of `const GET = { ... }` and `const POST = { ... }` in core's entry. */
function actions(coreDir: string): RouteKey[] {
  const file = join(coreDir, "src", "index.ts")
  const routes: RouteKey[] = []
  walk(parse(file), (node) => {
    if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name)) return
    const method = node.name.text
    if ((method !== "GET" && method !== "POST") || node.initializer === undefined || !ts.isObjectLiteralExpression(node.initializer)) return
    for (const property of node.initializer.properties) {
      const name = propertyName(property)
      // `flow` dispatches the routes the flows declare, listed below from the flows themselves.
      if (name !== undefined && name !== "flow") routes.push({ method, name, source: "index.ts" })
    }
  })
  if (!routes.some((route) => route.method === "GET") || !routes.some((route) => route.method === "POST")) throw new Error(`${file}: no GET and POST route tables found`)
  return routes
}

/** The `routes: { name: { GET, POST } }` every flow under `src/` declares. */
function flowRoutes(coreDir: string): RouteKey[] {
  const src = join(coreDir, "src")
  const routes: RouteKey[] = []
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
  for (const file of files) {
    walk(parse(join(src, file)), (node) => {
      if (!ts.isPropertyAssignment(node) || propertyName(node) !== "routes" || !ts.isObjectLiteralExpression(node.initializer)) return
      for (const route of node.initializer.properties) {
        const name = propertyName(route)
        if (name === undefined || !ts.isPropertyAssignment(route) || !ts.isObjectLiteralExpression(route.initializer)) continue
        const limit = route.initializer.properties.find((member) => propertyName(member) === "clientLimit")
        const clientLimit = limit !== undefined && ts.isPropertyAssignment(limit) && ts.isStringLiteral(limit.initializer) ? limit.initializer.text : undefined
        for (const member of route.initializer.properties) {
          const method = propertyName(member)
          // `clientLimit` covers every method of the route (`FlowRoute` in core's internal.ts).
          if (method === "GET" || method === "POST") routes.push({ method, name, source: relative(src, join(src, file)), ...(clientLimit === undefined ? {} : { clientLimit }) })
        }
      }
    })
  }
  return routes
}

/** Every route method the source declares, `Auth()`'s own first. */
export function readRoutes(coreDir: string): RouteKey[] {
  return [...actions(coreDir), ...flowRoutes(coreDir)]
}

/**
 * What is out of step between the source and `ROUTE_DOCS`: routes without docs, docs without a
 * route, and flow routes whose documented limit is not the `clientLimit` the flow declares.
 */
export function routeDrift(routes: readonly RouteKey[], docs: Record<string, readonly RouteDoc[]> = ROUTE_DOCS): { undocumented: string[]; stale: string[]; wrongLimit: string[] } {
  const declared = new Set(routes.map(key))
  return {
    undocumented: [...declared].filter((name) => (docs[name] ?? []).length === 0),
    stale: Object.keys(docs).filter((name) => !declared.has(name)),
    wrongLimit: routes.filter((route) => route.source !== "index.ts" && (docs[key(route)] ?? []).some((doc) => doc.limit !== route.clientLimit)).map(key),
  }
}

/** The route table page: one row per path, under `basePath` (default `/api/auth`). */
export function renderRoutes(routes: readonly RouteKey[], docs: Record<string, readonly RouteDoc[]> = ROUTE_DOCS): string {
  // Linked to the option's heading: the site test fails on a rule name the options page lacks.
  const limit = (doc: RouteDoc): string =>
    doc.limit === undefined ? "" : ` Counts against [${code(`rateLimit.perClient.${doc.limit}`)}](/reference/options#ratelimit-perclient-${doc.limit.toLowerCase()}).`
  const row = (route: RouteKey, doc: RouteDoc): string => `| ${code(`${route.method} ${doc.path}`)} | ${cell(escapeProse(doc.does))}${limit(doc)} | ${code(route.source)} |`
  const table = (filter: (route: RouteKey) => boolean): string =>
    [
      "| Route | What it does | Declared in |",
      "| --- | --- | --- |",
      ...routes.filter(filter).flatMap((route) => (docs[key(route)] ?? []).map((doc) => row(route, doc))),
    ].join("\n")
  return [
    generatedNotice("the GET and POST tables of packages/core/src/index.ts and each flow's `routes`"),
    "# Route table",
    "Every route `Auth()` answers, under `basePath` (`/api/auth` unless you set it; SvelteKit's default is `/auth`). `:id` is a provider's id; a `GET` route answers `HEAD` too, and another method gets `405` with `Allow`. The routes come from core's source and the descriptions are kept next to this page's generator: a route added to core without a description fails the docs build.",
    "A route that changes state takes a `POST` with the CSRF token from `GET /csrf` (the built-in pages and the client functions send it). The per-client limits apply when the client's address is known: see [Limits](/concepts/limits).",
    "## Routes of every app",
    table((route) => route.source === "index.ts"),
    "## Routes a sign-in flow adds",
    "These exist only when a provider of that flow is configured.",
    table((route) => route.source !== "index.ts"),
    "",
  ].join("\n\n")
}
