/** The plugin and server functions, and the provider paths the other integrations have. */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import GitHubFromProviders from "@portcullis/providers/github"
import { describe, expect, it } from "vitest"
import * as entry from "../src/index.js"

describe("exports", () => {
  it("exports the plugin (named and default), the server functions and the error classes", () => {
    expect(Object.keys(entry).sort()).toEqual(["AuthError", "CredentialsSignin", "RefreshTokenError", "default", "getAccessToken", "listSessions", "portcullis", "requireRecentAuth", "revokeSessions", "unlinkAccount"])
    expect(entry.default).toBe(entry.portcullis)
  })

  it("serves @portcullis/fastify/providers/<id> as @portcullis/providers/<id>", async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL("../../providers/scripts/re-export-entries.mjs", import.meta.url)), fileURLToPath(new URL("..", import.meta.url))])
    const github = (await import(new URL("../dist/providers/github.js", import.meta.url).href)) as { default: unknown }
    expect(github.default).toBe(GitHubFromProviders)
  })
})
