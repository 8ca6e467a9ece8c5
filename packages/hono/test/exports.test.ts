/** The names `@hono/auth-js` documents, and the provider paths the other integrations have. */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import GitHubFromProviders from "@portcullis/providers/github"
import { describe, expect, it } from "vitest"
import * as entry from "../src/index.js"

describe("exports", () => {
  it("exports initAuthConfig, authHandler, verifyAuth, getAuthUser, auth, requireRecentAuth, the server functions and the error classes", () => {
    expect(Object.keys(entry).sort()).toEqual(["AuthError", "CredentialsSignin", "RefreshTokenError", "auth", "authHandler", "getAccessToken", "getAuthUser", "initAuthConfig", "listSessions", "requireRecentAuth", "revokeSessions", "unlinkAccount", "verifyAuth"])
  })

  it("serves @portcullis/hono/providers/<id> as @portcullis/providers/<id>", async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL("../../providers/scripts/re-export-entries.mjs", import.meta.url)), fileURLToPath(new URL("..", import.meta.url))])
    const github = (await import(new URL("../dist/providers/github.js", import.meta.url).href)) as { default: unknown }
    expect(github.default).toBe(GitHubFromProviders)
  })
})
