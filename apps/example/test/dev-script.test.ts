/**
 * `pnpm dev` at the repository's root, as a newcomer runs it: the banner saying where the app runs
 * fits on the first screen (the builds before it print only failures, and only the packages the
 * example runs on are built), and nothing before it is a warning.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

import { scaled } from "@portcullis/test-time"

const ROOT = join(import.meta.dirname, "..", "..", "..")
const BANNER = /Auth example is running at/
/** Lines a terminal shows at once, less a few for the banner itself. */
const SCREEN = 25

const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)))
// Free ports, so the test runs beside a `pnpm dev` of one's own. A secret of its own, so the first
// start does not save one in the checkout's apps/example/.env (test/dev-env.test.ts checks that, in a temp dir).
const dev = spawn("pnpm", ["dev"], { cwd: ROOT, env: { ...env, PORT: "0", DEV_IDP_PORT: "0", AUTH_SECRET: "5LC0Ve2Ph6i9BOe8m9A90HklY4HfB181I8lQbJ+qUQg=" }, detached: true })

/** Everything printed, stdout and stderr as they came, up to and including the banner line. */
const printed = new Promise<string>((resolve, reject) => {
  let text = ""
  const take = (chunk: Buffer) => {
    text += chunk.toString("utf8")
    if (BANNER.test(text)) resolve(text.slice(0, text.search(BANNER)))
  }
  dev.stdout.on("data", take)
  dev.stderr.on("data", take)
  dev.once("exit", (code) => {
    reject(new Error(`pnpm dev ended (${String(code)}) before its banner:\n${text}`))
  })
})
printed.catch(() => undefined)

afterAll(() => {
  // Its own process group: pnpm runs tsx, which runs the server; all of them stop.
  if (dev.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, "SIGTERM")
})

describe("pnpm dev", () => {
  it(`shows the banner within ${SCREEN} lines, with no warning before it`, async () => {
    const before = (await printed).split("\n").filter((line) => line.trim() !== "")
    expect(before.length, before.join("\n")).toBeLessThanOrEqual(SCREEN)
    expect(before.filter((line) => /warn|deprecat/i.test(line))).toEqual([])
  }, scaled(120_000))

  it("builds only what the example runs on: no test-only package", async () => {
    const before = await printed
    expect(before).toMatch(/Tasks:\s+5 successful, 5 total/)
    expect(before).not.toMatch(/test-kit|test-time|adapter-test/)
  }, scaled(120_000))
})
