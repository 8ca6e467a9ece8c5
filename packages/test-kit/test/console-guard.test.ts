import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

import { scaled } from "@portcullis/test-time"

import { consoleOffence } from "../src/console-guard.js"

interface JsonReport {
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[]
}

describe("console-guard", () => {
  it("fails the tests that print core's log lines or a stack trace, and only those", () => {
    const root = join(import.meta.dirname, "console-guard")
    const run = spawnSync("pnpm", ["exec", "vitest", "run", "--root", root, "--reporter=json"], { cwd: join(import.meta.dirname, ".."), encoding: "utf8", timeout: scaled(60_000) })
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as JsonReport
    const outcomes = Object.fromEntries(report.testResults.flatMap((file) => file.assertionResults).map((test) => [test.title, test.status]))
    expect(outcomes).toEqual({
      "prints core's error line": "failed",
      "prints core's warning line": "failed",
      "prints an error with its stack": "failed",
      "prints a stack trace in a string": "failed",
      "records core's error line with a console spy and asserts on it": "passed",
      "prints a plain line": "passed",
    })
    expect(run.status).toBe(1)
  }, scaled(60_000))

  it("tells a stack frame from a line that mentions a place", () => {
    expect(consoleOffence("log", "    at Object.<anonymous> (file:///srv/app.js:3:9)")).toBe("a stack trace")
    expect(consoleOffence("log", "    at async Promise.all (index 0)")).toBeUndefined()
    expect(consoleOffence("log", "Look at http://localhost:3000")).toBeUndefined()
    expect(consoleOffence("trace", "here")).toBe("a stack trace")
    expect(consoleOffence("debug", "[auth][debug] signin")).toBeUndefined()
  })
})
