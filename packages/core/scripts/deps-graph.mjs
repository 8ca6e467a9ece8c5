// A look at core's import graph: `pnpm --filter @portcullis/core run deps:graph [out-dir]`.
// Prints every import circle in src (as strongly connected components: the modules that all
// reach each other, with which of their imports are type-only) and the rule violations by rule,
// then writes the graph as DOT files (modules.dot, and folders.dot one node per folder) for
// `dot -Tsvg` (rendered to SVG beside them when Graphviz's dot is installed). The rules and resolution are the ones lint uses (.dependency-cruiser.mjs).
import { spawnSync } from "node:child_process"
import console from "node:console"
import { mkdirSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import process from "node:process"
import { URL, fileURLToPath } from "node:url"
import { cruise, format } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const outDir = resolve(packageDir, process.argv[2] ?? "deps-graph")
process.chdir(packageDir)

const started = performance.now()
const options = await extractDepcruiseOptions("./.dependency-cruiser.mjs")
const { output } = await cruise(
  ["src"],
  { ...options, includeOnly: "^src/" },
  {},
  { tsConfig: extractTSConfig("tsconfig.json") },
)
if (typeof output === "string") throw new Error("dependency-cruiser returned a formatted report, expected a result")

/** @type {Map<string, { to: string, typeOnly: boolean }[]>} */
const edges = new Map(
  output.modules.map((module) => [
    module.source,
    module.dependencies.map((dependency) => ({
      to: dependency.resolved,
      typeOnly: dependency.dependencyTypes.includes("type-only") || dependency.dependencyTypes.includes("type-import"),
    })),
  ]),
)

// Tarjan's strongly connected components: a component of more than one module is a circle (or
// several sharing modules); dependency-cruiser's own report lists one example path per import.
/** @type {string[][]} */
const components = []
const index = new Map()
const lowLink = new Map()
/** @type {string[]} */
const stack = []
const onStack = new Set()
let counter = 0
/** @param {string} node */
function connect(node) {
  index.set(node, counter)
  lowLink.set(node, counter)
  counter += 1
  stack.push(node)
  onStack.add(node)
  for (const { to } of edges.get(node) ?? []) {
    if (!index.has(to)) {
      connect(to)
      lowLink.set(node, Math.min(lowLink.get(node), lowLink.get(to)))
    } else if (onStack.has(to)) {
      lowLink.set(node, Math.min(lowLink.get(node), index.get(to)))
    }
  }
  if (lowLink.get(node) === index.get(node)) {
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (edges.get(node) ?? []).some(({ to }) => to === node)) components.push(component.sort())
  }
}
for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node)

const lines = [`core's import graph: ${output.summary.totalCruised} modules, ${output.summary.totalDependenciesCruised} imports (type-only ones included)`, ""]
if (components.length === 0) lines.push("No import circles in src.")
for (const [position, component] of components.sort((a, b) => b.length - a.length).entries()) {
  const members = new Set(component)
  const inner = component.flatMap((from) => (edges.get(from) ?? []).filter(({ to }) => members.has(to)).map((edge) => ({ from, ...edge })))
  const typeOnly = inner.filter((edge) => edge.typeOnly).length
  lines.push(`circle ${position + 1}: ${component.length} modules, ${inner.length} imports among them (${typeOnly} type-only, ${inner.length - typeOnly} with values)`)
  for (const from of component) {
    const targets = inner.filter((edge) => edge.from === from).map((edge) => `${edge.to}${edge.typeOnly ? " (type)" : ""}`)
    lines.push(`  ${from} -> ${targets.join(", ")}`)
  }
  lines.push("")
}

/** @type {Map<string, string[]>} */
const byRule = new Map()
for (const violation of output.summary.violations) {
  const list = byRule.get(violation.rule.name) ?? []
  list.push(violation.cycle ? `${violation.from} -> ${violation.cycle.map((step) => step.name).join(" -> ")}` : `${violation.from} -> ${violation.to}`)
  byRule.set(violation.rule.name, list)
}
lines.push(`rule violations in src: ${output.summary.violations.length}`)
for (const [rule, list] of byRule) {
  lines.push(`  ${rule}: ${list.length}`)
  for (const entry of list.sort()) lines.push(`    ${entry}`)
}

mkdirSync(outDir, { recursive: true })
let rendered = true
for (const [name, outputType] of [
  ["modules", "dot"],
  ["folders", "archi"],
]) {
  const formatted = await format(output, { outputType })
  writeFileSync(join(outDir, `${name}.dot`), String(formatted.output))
  const dot = spawnSync("dot", ["-Tsvg", `${name}.dot`, "-o", `${name}.svg`], { cwd: outDir })
  rendered &&= dot.status === 0
}
lines.push(
  "",
  `wrote modules.dot (each module) and folders.dot (each folder of src a node) in ${outDir}`,
  rendered ? "and rendered them to modules.svg and folders.svg" : "render them with Graphviz: dot -Tsvg modules.dot -o modules.svg",
)
lines.push(`took ${((performance.now() - started) / 1000).toFixed(1)} s`)
console.log(lines.join("\n"))
