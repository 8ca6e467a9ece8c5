/**
 * A fresh clone's first `pnpm install` prints no warning: pnpm links every workspace package's
 * bin while installing, before anything is built, and warns "Failed to create bin" for each
 * dependent of a package whose bin points at a file the build makes (22 lines for two bins).
 * The full clone-and-install takes about 12 s on the 2-core machine, so this checks the same on
 * a scratch workspace holding only the packages that declare a bin, with their committed files.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { chmod, copyFile, mkdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, normalize } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { run } from "./run.js"
import { ROOT, workspacePackages } from "./workspace.js"

/** The tracked files of the work tree, as a fresh clone has them. */
const tracked = new Set(
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((line) => line !== ""),
)

const withBins = (await workspacePackages()).flatMap(({ dir, manifest }) => {
  const { bin } = manifest as { bin?: string | Record<string, string> }
  if (bin === undefined) return []
  const bins = typeof bin === "string" ? { [manifest.name.split("/").pop() ?? manifest.name]: bin } : bin
  return [{ dir, name: manifest.name, bins: Object.entries(bins).map(([command, file]) => ({ command, file: normalize(file) })) }]
})

const scratch = mkdtempSync(join(tmpdir(), "auth-first-install-"))

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

/** The environment of a pnpm started by hand, not the one `pnpm run` passes down to this test. */
function plainEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)))
}

describe("a fresh clone's first pnpm install", () => {
  it("finds the workspace packages that declare a bin", () => {
    expect(withBins.map(({ name }) => name)).toEqual(expect.arrayContaining(["@portcullis/dev-idp", "@portcullis/migrate"]))
  })

  it.each(withBins.flatMap(({ dir, bins }) => bins.map(({ command, file }) => [command, join(dir, file)])))("links %s to a committed file (%s), not a build output", (_command, path) => {
    expect(tracked.has(path), `${path} must be in git: pnpm links bins before the build`).toBe(true)
  })

  it("prints no warning when it links the bins of packages that are not built yet", async () => {
    const dependencies: Record<string, string> = {}
    for (const { dir, name, bins } of withBins) {
      const bin = Object.fromEntries(bins.map(({ command, file }) => [command, file]))
      await mkdir(join(scratch, dir), { recursive: true })
      await writeFile(join(scratch, dir, "package.json"), JSON.stringify({ name, version: "0.0.0", type: "module", bin }))
      for (const { file } of bins) {
        if (!tracked.has(join(dir, file))) continue
        await mkdir(dirname(join(scratch, dir, file)), { recursive: true })
        await copyFile(join(ROOT, dir, file), join(scratch, dir, file))
        await chmod(join(scratch, dir, file), 0o755)
      }
      dependencies[name] = "workspace:*"
    }
    await mkdir(join(scratch, "apps", "user"), { recursive: true })
    await writeFile(join(scratch, "apps", "user", "package.json"), JSON.stringify({ name: "user", private: true, dependencies }))
    await writeFile(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true }))
    await writeFile(join(scratch, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n  - apps/*\n")

    const { stdout, stderr } = await run("pnpm", ["install", "--offline"], { cwd: scratch, env: plainEnv() })
    const output = `${stdout}\n${stderr}`
    expect(output).not.toMatch(/Failed to create bin/)
    expect(output).not.toMatch(/\bWARN\b/)
  })

  it("says to build first when a bin runs before the build", async () => {
    for (const { bins } of withBins) {
      for (const { command } of bins) {
        const failure = run(join(scratch, "apps", "user", "node_modules", ".bin", command), [], { cwd: scratch, env: plainEnv() })
        await expect(failure).rejects.toThrow(/is not built yet: run `pnpm build`/)
      }
    }
  })
})
