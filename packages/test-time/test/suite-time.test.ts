import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"

import { formatTable, main, readBudget, suiteTimes, summaryPath } from "../../../.ci/suite-time.mjs"

const repo = join(import.meta.dirname, "../../..")

/** A task as turbo 2.11's run summary writes it, trimmed to the fields read and a few beside them. */
function task(pkg: string, kind: string, startTime: number, endTime: number) {
  return {
    taskId: `${pkg}#${kind}`,
    task: kind,
    package: pkg,
    hash: "af633fc0d7f6aab3",
    cache: { local: false, remote: false, status: "MISS", timeSaved: 0 },
    command: kind === "test" ? "vitest run" : "tsup",
    directory: `packages/${pkg}`,
    execution: { startTime, endTime, exitCode: 0 },
  }
}

const START = 1_795_890_474_112

/** A summary of a run of two packages; core's test started 10 s in and took 190.4 s. */
const summary = {
  id: "3MkNC4aNAaRoNXWW5wsUbH5sTpg",
  version: "1",
  turboVersion: "2.11.11",
  execution: { command: "turbo run lint typecheck build test --concurrency=2 --continue", success: 5, failed: 0, cached: 0, attempted: 5, startTime: START, endTime: START + 780_000, exitCode: 0 },
  tasks: [
    task("@portcullis/core", "build", START, START + 15_000),
    task("@portcullis/core", "lint", START + 15_000, START + 27_500),
    task("@portcullis/core", "test", START + 10_000, START + 200_400),
    task("example", "test", START + 200_000, START + 332_000),
    task("example", "lint", START + 400_000, START + 404_000),
    // Not run: a dependency failed under --continue.
    { taskId: "example#typecheck", task: "typecheck", package: "example", cache: { status: "MISS" } },
  ],
}

/** The end of `pnpm check --summarize`'s output as it reaches `.ci/run`'s log, colours included. */
function logEnding(path: string): string {
  return [
    "example:test: \u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m101 passed\u001b[39m\u001b[22m\u001b[90m (101)\u001b[39m",
    "",
    " Tasks:    5 successful, 5 total",
    "Cached:    0 cached, 5 total",
    "  Time:    13m0.112s ",
    `\u001b[2mSummary:    ${path}\u001b[22m`,
    "",
  ].join("\n")
}

describe("the suite's time, from turbo's run summary", () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
    vi.restoreAllMocks()
  })

  /** Writes the summary, the log naming it and a budget; answers their paths. */
  function files(totalSeconds: number, log = logEnding): { log: string; budget: string } {
    const dir = mkdtempSync(join(tmpdir(), "suite-time-"))
    dirs.push(dir)
    const summaryFile = join(dir, "3MkNC4aNAaRoNXWW5wsUbH5sTpg.json")
    writeFileSync(summaryFile, JSON.stringify(summary))
    writeFileSync(join(dir, "log"), log(summaryFile))
    writeFileSync(join(dir, "budget.json"), JSON.stringify({ totalSeconds }))
    return { log: join(dir, "log"), budget: join(dir, "budget.json") }
  }

  it("finds the summary turbo names in its last \"Summary:\" line, through the colour codes", () => {
    expect(summaryPath(logEnding("/repo/.turbo/runs/a.json"))).toBe("/repo/.turbo/runs/a.json")
    expect(summaryPath("@portcullis/core:test: Summary: of nothing\n Tasks: 1 successful")).toBeUndefined()
  })

  it("adds up each package's seconds per task from each task's own start and end, skipping tasks not run", () => {
    expect(suiteTimes(summary)).toEqual({
      packages: { "@portcullis/core": { build: 15, lint: 12.5, test: 190.4 }, example: { test: 132, lint: 4 } },
      wallSeconds: 780,
    })
    expect(() => suiteTimes({ tasks: [] })).toThrow(TypeError)
  })

  it("prints a row per package, slowest tests first, the totals and the wall time against the budget", () => {
    expect(formatTable(suiteTimes(summary), { totalSeconds: 1200 }, 812).split("\n")).toEqual([
      "Suite time in seconds (budget: .ci/budget.json)",
      "package                       test      lint typecheck     build",
      "@portcullis/core               190        13         -        15",
      "example                        132         4         -         -",
      "all tasks                      322        17         0        15",
      "turbo run (wall)               780",
      ".ci/run (wall)                 812 of 1200 budgeted",
    ])
  })

  it("passes within the budget and fails past it, saying by how much", () => {
    const printed = vi.spyOn(console, "log").mockImplementation(() => undefined)
    const within = files(1200)
    expect(main([within.log, within.budget, "812"])).toBe(0)
    expect(printed.mock.calls.at(-1)?.[0]).toMatch(/812 of 1200 budgeted$/)
    const over = files(600)
    expect(main([over.log, over.budget, "812"])).toBe(1)
    expect(printed.mock.calls.at(-1)?.[0]).toBe("The suite took 812 s, over the 600 s budget in .ci/budget.json.")
  })

  it("fails when the log names no summary, rather than pass a budget nobody checked", () => {
    const printed = vi.spyOn(console, "log").mockImplementation(() => undefined)
    const unnamed = files(1200, () => " Tasks:    5 successful, 5 total\n")
    expect(main([unnamed.log, unnamed.budget, "812"])).toBe(1)
    expect(printed.mock.calls.at(-1)?.[0]).toMatch(/no "Summary:" line/)
  })

  it("reads the repository's budget, which keeps margin over today's runs and names the 600 s target", () => {
    const budget = JSON.parse(readFileSync(join(repo, ".ci/budget.json"), "utf8")) as { targetSeconds: number; runs: { seconds: number }[] }
    expect(budget.runs.length).toBeGreaterThan(0)
    for (const run of budget.runs) expect(readBudget(budget).totalSeconds).toBeGreaterThan(run.seconds)
    expect(budget.targetSeconds).toBe(600)
    expect(() => readBudget({ totalSeconds: "20 min" })).toThrow(TypeError)
  })

  it("is what .ci/run calls with turbo's --summarize, before the closing count line", () => {
    const script = readFileSync(join(repo, ".ci/run"), "utf8")
    expect(script).toContain("pnpm check --summarize")
    const timing = script.indexOf("node .ci/suite-time.mjs")
    expect(timing).toBeGreaterThan(0)
    expect(script.indexOf('printf "%d passed, %d failed\\n"')).toBeGreaterThan(timing)
  })
})
