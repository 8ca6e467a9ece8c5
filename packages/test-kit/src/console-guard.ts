/**
 * A vitest setup file (`setupFiles: ["@portcullis/test-kit/console-guard"]`): a test fails when
 * core's log lines (`[auth][error]`, `[auth][warn]`) or a stack trace reach the console, so a
 * passing suite prints none. A test that provokes one records it (a `logger` in the
 * configuration, or `vi.spyOn(console, "error").mockImplementation(...)` where there is none) and
 * asserts on it; what a spy takes never reaches the guard.
 */
import { format } from "node:util"
import { afterAll, afterEach, beforeEach } from "vitest"

/** The console methods watched: everything that prints. */
const METHODS = ["error", "warn", "log", "info", "debug", "trace"] as const

/** Why `text` must not be printed by a passing test, or `undefined` when it may. */
export function consoleOffence(method: string, text: string): string | undefined {
  if (/\[auth\]\[(?:error|warn)\]/.test(text)) return "a log line of core's"
  // A frame as V8 prints it: "    at name (file:line:column)", "    at file:line:column", "    at <anonymous>".
  if (method === "trace" || /^\s+at (?:.+ \()?(?:[^\s()]+:\d+:\d+|<anonymous>|native)\)?$/m.test(text)) return "a stack trace"
  return undefined
}

/** What was printed against the rules since the last check. */
interface GuardState {
  offences: string[]
}

// One guard per worker: a run without isolation (`isolate: false`) loads this file again for each
// test file, and its console must not be wrapped once more each time.
const GUARD = Symbol.for("@portcullis/test-kit/console-guard")
const scope = globalThis as { [GUARD]?: GuardState }
const state: GuardState = (scope[GUARD] ??= { offences: [] })

for (const method of METHODS) {
  const current: unknown = Reflect.get(console, method)
  if (typeof current === "function" && GUARD in current) continue
  const original = console[method].bind(console) as (...args: unknown[]) => void
  const guarded = (...args: unknown[]) => {
    const text = format(...args)
    const offence = consoleOffence(method, text)
    if (offence !== undefined) state.offences.push(`console.${method} printed ${offence}:\n${text}`)
    original(...args)
  }
  console[method] = Object.assign(guarded, { [GUARD]: true as const })
}

/** Fails with what was printed, then starts over. */
function check(where: string): void {
  if (state.offences.length === 0) return
  const printed = state.offences
  state.offences = []
  throw new Error(
    `${where} printed what a passing test must not (@portcullis/test-kit/console-guard): record it with a logger or a mocked console spy and assert on it.\n\n${printed.join("\n\n")}`,
  )
}

beforeEach(() => {
  check("The file's set-up (beforeAll, or an earlier test after it ended)")
})

afterEach(() => {
  check("This test")
})

afterAll(() => {
  check("The file's tear-down (afterAll, or a test after it ended)")
})
