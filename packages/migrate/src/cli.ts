#!/usr/bin/env node
/**
 * `npx @portcullis/migrate [dir] [--dry-run]`: migrates the Auth.js app in `dir` (default: the
 * current directory) and prints what changed and what is left. Exits 0 whether or not files
 * changed; 1 when a file cannot be parsed or a framework version must be upgraded first (nothing
 * is written then); 2 on a wrong command line.
 *
 * @module
 */
import { existsSync, statSync } from "node:fs"
import { resolve } from "node:path"
import { migrate } from "./index.js"
import { formatReport } from "./report.js"

const USAGE = `Usage: npx @portcullis/migrate [dir] [--dry-run]

Moves an Auth.js app (next-auth v5, @auth/core, @auth/express, @auth/sveltekit) in dir (default: .) to Portcullis.
  --dry-run   print the changes as a unified diff and write nothing
`

function main(args: readonly string[]): number {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE)
    return 0
  }
  const dryRun = args.includes("--dry-run")
  const unknown = args.filter((arg) => arg.startsWith("-") && arg !== "--dry-run")
  const dirs = args.filter((arg) => !arg.startsWith("-"))
  if (unknown.length > 0 || dirs.length > 1) {
    process.stderr.write(`${unknown.length > 0 ? `Unknown option ${unknown.join(", ")}` : "Give one directory"}.\n${USAGE}`)
    return 2
  }
  const dir = resolve(dirs[0] ?? ".")
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    process.stderr.write(`${dir} is not a directory.\n${USAGE}`)
    return 2
  }
  const report = migrate({ dir, dryRun })
  const output = formatReport(report, { dryRun })
  if (report.parseErrors.length > 0 || report.blockers.length > 0) {
    process.stderr.write(output)
    return 1
  }
  process.stdout.write(output)
  return 0
}

process.exitCode = main(process.argv.slice(2))
