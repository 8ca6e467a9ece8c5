/** The entries' names, and the provider paths the other integrations have. */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import GitHubFromProviders from "@portcullis/providers/github"
import { describe, expect, it } from "vitest"
import * as entry from "../src/index.js"
import * as client from "../src/client.js"

describe("exports", () => {
  it("exports the integration (default) and defineConfig; the client entry signIn and signOut", () => {
    expect(Object.keys(entry).sort()).toEqual(["default", "defineConfig"])
    expect(Object.keys(client).sort()).toEqual(["signIn", "signOut"])
  })

  it("ships the SignIn, SignOut and Auth components as auth-astro names them", () => {
    const components = readFileSync(new URL("../src/components/index.js", import.meta.url), "utf8")
    expect([...components.matchAll(/as (\w+) \}/g)].map(([, name]) => name)).toEqual(["Auth", "SignIn", "SignOut"])
  })

  it("serves @portcullis/astro/providers/<id> as @portcullis/providers/<id>", async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL("../../providers/scripts/re-export-entries.mjs", import.meta.url)), fileURLToPath(new URL("..", import.meta.url))])
    const github = (await import(new URL("../dist/providers/github.js", import.meta.url).href)) as { default: unknown }
    expect(github.default).toBe(GitHubFromProviders)
  })
})
