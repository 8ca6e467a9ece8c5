// The suite's time: each package's test seconds (and the lint, typecheck and build totals) read
// from turbo's run summary (`turbo run … --summarize`), printed as a short table, and checked
// against the budget in `.ci/budget.json`. `.ci/run` calls it after `pnpm check`:
//   node .ci/suite-time.mjs <turbo log> <budget.json> <seconds .ci/run has taken>
// The summary gives each task's own start and end, which the interleaved log lines do not.
/* global console, process */
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

/** The tasks the table has a column for, in `pnpm check`'s order. */
export const COLUMNS = ["test", "lint", "typecheck", "build"]

/**
 * The path of the run summary turbo wrote, from its own "Summary: <path>" line in the log.
 * @param {string} log
 * @returns {string | undefined}
 */
export function summaryPath(log) {
  // eslint-disable-next-line no-control-regex -- the escape that starts a colour code is the point
  const plain = log.replace(/\x1b\[[0-9;]*m/g, "")
  const found = [...plain.matchAll(/^\s*Summary:\s+(\S+\.json)\s*$/gm)].at(-1)
  return found?.[1]
}

/**
 * Seconds per package and task, and turbo's own wall time, from a run summary.
 * @param {unknown} summary the parsed `.turbo/runs/<id>.json`
 * @returns {import("./suite-time.d.mts").SuiteTimes}
 * @throws {TypeError} when the summary has no task list or no run start and end
 */
export function suiteTimes(summary) {
  const run = /** @type {{ execution?: { startTime?: unknown, endTime?: unknown }, tasks?: unknown }} */ (summary ?? {})
  if (!Array.isArray(run.tasks) || typeof run.execution?.startTime !== "number" || typeof run.execution.endTime !== "number") {
    throw new TypeError("not a turbo run summary: it needs execution.startTime, execution.endTime and tasks")
  }
  /** @type {Record<string, Record<string, number>>} */
  const packages = {}
  for (const task of run.tasks) {
    const { package: name, task: kind, execution } = task ?? {}
    // A task turbo did not run (a dependency failed under --continue) has no execution.
    if (typeof name !== "string" || typeof kind !== "string" || typeof execution?.startTime !== "number" || typeof execution.endTime !== "number") continue
    const seconds = Math.max(0, execution.endTime - execution.startTime) / 1000
    packages[name] ??= {}
    packages[name][kind] = (packages[name][kind] ?? 0) + seconds
  }
  return { packages, wallSeconds: (run.execution.endTime - run.execution.startTime) / 1000 }
}

/**
 * The table: a row per package, slowest tests first, then the column totals and the wall times
 * against the budget.
 * @param {import("./suite-time.d.mts").SuiteTimes} times
 * @param {{ totalSeconds: number }} budget
 * @param {number} runSeconds what `.ci/run` took from its start to now
 * @returns {string}
 */
export function formatTable(times, budget, runSeconds) {
  const names = Object.keys(times.packages).sort((a, b) => (times.packages[b]?.test ?? 0) - (times.packages[a]?.test ?? 0) || a.localeCompare(b))
  const width = Math.max(24, ...names.map((name) => name.length))
  const cell = (/** @type {number | undefined} */ seconds) => (seconds === undefined ? "-" : String(Math.round(seconds))).padStart(10)
  const line = (/** @type {string} */ label, /** @type {(number | undefined)[]} */ cells) => `${label.padEnd(width)}${cells.map(cell).join("")}`
  const totals = COLUMNS.map((column) => names.reduce((sum, name) => sum + (times.packages[name]?.[column] ?? 0), 0))
  return [
    `Suite time in seconds (budget: .ci/budget.json)`,
    `${"package".padEnd(width)}${COLUMNS.map((column) => column.padStart(10)).join("")}`,
    ...names.map((name) => line(name, COLUMNS.map((column) => times.packages[name]?.[column]))),
    line("all tasks", totals),
    `${"turbo run (wall)".padEnd(width)}${cell(times.wallSeconds)}`,
    `${".ci/run (wall)".padEnd(width)}${cell(runSeconds)} of ${budget.totalSeconds} budgeted`,
  ].join("\n")
}

/**
 * The budget from `.ci/budget.json`.
 * @param {unknown} parsed
 * @returns {{ totalSeconds: number }}
 * @throws {TypeError} when `totalSeconds` is not a positive number
 */
export function readBudget(parsed) {
  const total = /** @type {{ totalSeconds?: unknown }} */ (parsed ?? {}).totalSeconds
  if (typeof total !== "number" || !(total > 0)) throw new TypeError(".ci/budget.json needs totalSeconds, a positive number of seconds")
  return { totalSeconds: total }
}

/**
 * Prints the table and answers the exit code: 0 within the budget, 1 over it or when the
 * summary cannot be read (a budget nobody can check is no budget).
 * @param {string[]} args the log's path, the budget's path, and the seconds `.ci/run` has taken
 * @returns {number}
 */
export function main(args) {
  const [logFile, budgetFile, elapsed] = args
  try {
    const budget = readBudget(JSON.parse(readFileSync(String(budgetFile), "utf8")))
    const path = summaryPath(readFileSync(String(logFile), "utf8"))
    if (path === undefined) throw new Error("turbo printed no \"Summary:\" line (was it run with --summarize?)")
    const runSeconds = Number(elapsed)
    console.log(formatTable(suiteTimes(JSON.parse(readFileSync(resolve(path), "utf8"))), budget, runSeconds))
    if (runSeconds > budget.totalSeconds) {
      console.log(`The suite took ${Math.round(runSeconds)} s, over the ${budget.totalSeconds} s budget in .ci/budget.json.`)
      return 1
    }
    return 0
  } catch (error) {
    console.log(`The suite's time could not be checked: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2))
}
