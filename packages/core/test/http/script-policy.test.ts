/**
 * One home for admitting a control's script on a page's Content-Security-Policy: two controls on
 * one page (the passkey button and the password toggle) must add to the same directives whichever
 * provider is listed first.
 */
import { describe, expect, it, vi } from "vitest"
import { admitScripts } from "../../src/http/script-policy.js"
import { Jar, call } from "../helpers.js"
import { passwordApp, passwordProviderConfig } from "../password/harness.js"
import { passkeyProvider } from "../webauthn/harness.js"

vi.mock("../../src/password/scrypt.js", async (original) => (await import("../password/cheap-scrypt.js")).cheapScrypt(original))

const BASE = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'; base-uri 'none'"

function directives(policy: string | null): Map<string, string[]> {
  return new Map((policy ?? "").split(";").map((directive) => directive.trim().split(" ")).map(([name = "", ...values]) => [name, values]))
}

describe("admitScripts", () => {
  it("makes script-src (and connect-src when asked) beside default-src, and keeps every other directive", () => {
    const headers = new Headers({ "content-security-policy": BASE })
    admitScripts(headers, ["'self'", "'sha256-a'"], { connect: true })
    expect(headers.get("content-security-policy")).toBe(`default-src 'none'; script-src 'self' 'sha256-a'; connect-src 'self'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'; base-uri 'none'`)
  })

  it("adds to the directives a first control made, once each, in either order", () => {
    const first = new Headers({ "content-security-policy": BASE })
    admitScripts(first, ["'sha256-toggle'"])
    admitScripts(first, ["'self'", "'sha256-passkey'"], { connect: true })
    const second = new Headers({ "content-security-policy": BASE })
    admitScripts(second, ["'self'", "'sha256-passkey'"], { connect: true })
    admitScripts(second, ["'sha256-toggle'", "'self'"])
    for (const headers of [first, second]) {
      const policy = directives(headers.get("content-security-policy"))
      expect(new Set(policy.get("script-src"))).toEqual(new Set(["'self'", "'sha256-passkey'", "'sha256-toggle'"]))
      expect(policy.get("connect-src")).toEqual(["'self'"])
      expect(policy.get("default-src")).toEqual(["'none'"])
    }
  })
})

describe("the sign-in page with Password() and Passkey()", () => {
  it.each([
    ["Password() first", "password-first"],
    ["Passkey() first", "passkey-first"],
  ])("admits both scripts and the passkey's requests to our routes, %s", async (_name, order) => {
    const base = passwordApp()
    const providers = order === "password-first" ? [passwordProviderConfig(), passkeyProvider()] : [passkeyProvider(), passwordProviderConfig()]
    const response = await call({ ...base, providers: providers as never }, new Jar(), "/api/auth/signin")
    expect(response.status).toBe(200)
    const policy = directives(response.headers.get("content-security-policy"))
    expect(policy.get("connect-src")).toEqual(["'self'"])
    expect(policy.get("script-src")).toContain("'self'")
    // The passkey script (pinned by its SRI hash) and the password toggle (by its hash).
    expect(policy.get("script-src")?.filter((source) => source.startsWith("'sha"))).toHaveLength(2)
  })
})
