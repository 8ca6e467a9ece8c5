/** Small apps written to a temp folder for the unit tests, and read back after a migration. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { onTestFinished } from "vitest"

/** Writes `files` (path → content) under a fresh temp folder, removed when the test ends. */
export function writeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "portcullis-migrate-"))
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  return dir
}

/** Reads a file of a project. */
export function readProjectFile(dir: string, file: string): string {
  return readFileSync(join(dir, file), "utf8")
}

/** A fixed migration date, so the dates the tests expect are known. */
export const NOW = new Date("2026-01-15T10:00:00.000Z")
