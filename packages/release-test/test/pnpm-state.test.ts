/**
 * The cause of `pnpm: Unexpected end of JSON input at loadWorkspaceState` under `pnpm check`:
 * pnpm started below a pnpm script reads (and rewrites) node_modules/.pnpm-workspace-state-v1.json,
 * which its siblings under turbo may have just truncated. The root scripts switch that off.
 * Shown on a scratch workspace whose state file is truncated, as a racing writer leaves it.
 */
import { mkdtempSync } from "node:fs"
import { mkdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { run } from "./run.js"
import { ROOT, readManifest } from "./workspace.js"

const PREFIX = "pnpm_config_verify_deps_before_run= "

const dir = mkdtempSync(join(tmpdir(), "auth-pnpm-state-"))

beforeAll(async () => {
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "state-root", private: true }))
  await writeFile(join(dir, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n")
  await mkdir(join(dir, "packages", "a"), { recursive: true })
  await writeFile(join(dir, "packages", "a", "package.json"), JSON.stringify({ name: "a", private: true, scripts: { noop: "true" } }))
  await mkdir(join(dir, "node_modules"))
  await writeFile(join(dir, "node_modules", ".pnpm-workspace-state-v1.json"), "")
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** `pnpm run noop` in package a, started the way turbo starts a task under a pnpm script. */
function nestedRun(prefix: string): Promise<unknown> {
  const env = { ...process.env, pnpm_config_verify_deps_before_run: "false" }
  return run("sh", ["-c", `${prefix}pnpm run noop`], { cwd: join(dir, "packages", "a"), env })
}

describe("pnpm below a pnpm script", () => {
  it("reads the workspace state, and fails on a truncated one, as pnpm leaves things", async () => {
    await expect(nestedRun("")).rejects.toThrow(/Unexpected end of JSON input/)
  })

  it("leaves the workspace state alone when started as the root scripts start turbo", async () => {
    await expect(nestedRun(PREFIX)).resolves.toBeDefined()
  })

  it("is how every root script that runs turbo starts it", async () => {
    const { scripts = {} } = (await readManifest(ROOT)) as { scripts?: Record<string, string> }
    const turbo = Object.entries(scripts).filter(([, command]) => command.includes("turbo "))
    expect(turbo.length).toBeGreaterThan(0)
    for (const [name, command] of turbo) expect(command, name).toMatch(new RegExp(`^${PREFIX}turbo `))
  })
})
