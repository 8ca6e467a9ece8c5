/**
 * A SvelteKit app still on Svelte 4 and Kit 2.8, as @auth/sveltekit's example pinned them
 * (test/fixtures/sveltekit4-app): @portcullis/sveltekit needs Svelte 5, so the built bin stops
 * before writing anything, exits non-zero and prints the step that unblocks it, instead of
 * leaving an app that `npm install` refuses.
 */
import { rmSync } from "node:fs"
import { afterAll, beforeAll, expect, it } from "vitest"
import { copyFixtureOutside, runBin, snapshotTree, type BinRun } from "./apps.js"

let scratch: string
let before: Map<string, string>
let after: Map<string, string>
let migration: BinRun

beforeAll(async () => {
  const copy = copyFixtureOutside("sveltekit4-app")
  scratch = copy.scratch
  before = snapshotTree(copy.dir)
  migration = await runBin([copy.dir])
  after = snapshotTree(copy.dir)
})

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

it("refuses a Svelte 4 app with a non-zero exit and the upgrade step", () => {
  expect(migration.code).not.toBe(0)
  expect(`${migration.stdout}${migration.stderr}`).toContain("npx sv migrate svelte-5")
})

it("leaves every file of the refused app as it was", () => {
  expect(after).toEqual(before)
})
