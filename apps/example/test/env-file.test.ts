import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

import { afterEach, describe, expect, it } from "vitest"

import { loadEnvFile } from "../src/env-file.js"

describe("loadEnvFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "example-env-"))
  afterEach(() => {
    rmSync(join(dir, ".env"), { force: true })
  })

  it("answers undefined when there is no file", () => {
    const env: Record<string, string | undefined> = {}
    expect(loadEnvFile(join(dir, ".env"), env)).toBeUndefined()
    expect(env).toEqual({})
  })

  it("loads the variables, with comments, quotes and empty values", () => {
    writeFileSync(
      join(dir, ".env"),
      ['# a comment', 'AUTH_SECRET="quoted secret value"', "AUTH_GITHUB_ID=abc123 # trailing", "AUTH_GITHUB_SECRET=", ""].join("\n"),
    )
    const env: Record<string, string | undefined> = {}
    expect(loadEnvFile(join(dir, ".env"), env)?.sort()).toEqual(["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_SECRET"])
    expect(env).toEqual({ AUTH_SECRET: "quoted secret value", AUTH_GITHUB_ID: "abc123", AUTH_GITHUB_SECRET: "" })
  })

  it("never overrides a variable set in the shell", () => {
    writeFileSync(join(dir, ".env"), "AUTH_SESSION_STRATEGY=jwt\nPORT=3001\n")
    const env: Record<string, string | undefined> = { AUTH_SESSION_STRATEGY: "database" }
    expect(loadEnvFile(join(dir, ".env"), env)).toEqual(["PORT"])
    expect(env).toEqual({ AUTH_SESSION_STRATEGY: "database", PORT: "3001" })
  })
})
