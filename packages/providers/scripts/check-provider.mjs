#!/usr/bin/env node
// Checks one provider folder in seconds: regenerates the lists (the header's name, type and docs
// link feed them), then runs that folder's test, the contract cases for that id only, the type
// check and eslint on the folder. The packages it imports (core, the memory adapter) are built
// first through turbo, which answers from its cache when they have not changed; this package's
// own build is not needed (the tests import its sources).
//
//   pnpm check-provider <id>
import { spawnSync } from "node:child_process"
import console from "node:console"
import { existsSync } from "node:fs"
import { join } from "node:path"
import process from "node:process"
import { URL, fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const id = process.argv[2]
if (id === undefined || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) || !existsSync(join(packageDir, "src", id))) {
  console.error("check-provider: give the id of a folder under src/ (kebab-case), e.g. `pnpm check-provider acme-cloud`")
  process.exit(1)
}

// The package's own bin folder, else the workspace root's (where pnpm hoists shared tools).
const bin = (name) =>
  [packageDir, join(packageDir, "..", "..")].map((dir) => join(dir, "node_modules", ".bin", name)).find((path) => existsSync(path)) ?? name
const steps = [
  ["build what it imports (cached when unchanged)", bin("turbo"), ["run", "build", "--filter=@portcullis/providers^...", "--output-logs=errors-only"]],
  ["regenerate the exports map, unions and README tables", process.execPath, ["scripts/generate.mjs"]],
  ["its test", bin("vitest"), ["run", `src/${id}/`]],
  // `-t` keeps the contract's `src/<id>` block only (anchored, so `git` is not `github`).
  ["its contract cases", bin("vitest"), ["run", "test/contract.test.ts", "-t", `^src/${id} `]],
  ["type check", bin("tsc"), ["--noEmit"]],
  ["eslint on the folder", bin("eslint"), [`src/${id}`]],
]
for (const [what, command, args] of steps) {
  console.log(`\ncheck-provider: ${what}`)
  const run = spawnSync(command, args, { cwd: packageDir, stdio: "inherit" })
  if (run.status !== 0) {
    console.error(`check-provider: "${what}" failed (above)`)
    process.exit(1)
  }
}
console.log(`\ncheck-provider: src/${id} is green. Commit the folder, the regenerated files and the changeset together.`)
