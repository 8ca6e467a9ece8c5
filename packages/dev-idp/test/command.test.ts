import { afterEach, describe, expect, it } from "vitest"

import { TestBrowser } from "@portcullis/test-kit/browser"
import { DEFAULT_PORT, UsageError, readCommandLine, runCommand, type CommandOptions } from "../src/command.js"
import type { DevIdp } from "../src/index.js"

const started: DevIdp[] = []

afterEach(async () => {
  for (const idp of started.splice(0)) await idp.close()
})

function options(args: string[]): CommandOptions {
  const read = readCommandLine(args)
  if (read === "help") throw new Error("unexpected --help")
  return read
}

describe("readCommandLine", () => {
  it("defaults to a fixed port and the callback, sign-out and back-channel URLs of an app on port 3000 under /api/auth", () => {
    expect(options([])).toEqual({
      port: DEFAULT_PORT,
      redirectUris: ["http://localhost:3000/api/auth/callback/dev-idp", "http://127.0.0.1:3000/api/auth/callback/dev-idp"],
      postLogoutRedirectUris: ["http://localhost:3000/api/auth/signout/callback/dev-idp", "http://127.0.0.1:3000/api/auth/signout/callback/dev-idp"],
      backchannelLogoutUri: "http://localhost:3000/api/auth/backchannel-logout/dev-idp",
      clientId: "dev-app",
      clientSecret: "dev-app-secret",
      consent: "prompt",
      logoutConfirmation: "prompt",
    })
  })

  it("derives the sign-out URLs from --app-url and --base-path, or takes them as given", () => {
    expect(options(["--app-url", "http://localhost:5173/", "--base-path", "/auth/"])).toMatchObject({
      postLogoutRedirectUris: ["http://localhost:5173/auth/signout/callback/dev-idp"],
      backchannelLogoutUri: "http://localhost:5173/auth/backchannel-logout/dev-idp",
    })
    expect(
      options(["--post-logout-redirect-uri", "http://localhost:8080/bye", "--backchannel-logout-uri", "http://localhost:8080/bcl", "--logout-confirmation", "auto"]),
    ).toMatchObject({
      postLogoutRedirectUris: ["http://localhost:8080/bye"],
      backchannelLogoutUri: "http://localhost:8080/bcl",
      logoutConfirmation: "auto",
    })
    expect(options(["--no-backchannel-logout"]).backchannelLogoutUri).toBeUndefined()
  })

  it("derives the callback URLs from --app-url and --base-path, or takes them as given", () => {
    expect(options(["--app-url", "http://localhost:5173/", "--base-path", "/auth/"]).redirectUris).toEqual(["http://localhost:5173/auth/callback/dev-idp"])
    expect(options(["--redirect-uri", "http://localhost:8080/cb", "--redirect-uri", "http://localhost:8080/cb2"]).redirectUris).toEqual([
      "http://localhost:8080/cb",
      "http://localhost:8080/cb2",
    ])
  })

  it("answers --help", () => {
    expect(readCommandLine(["-h"])).toBe("help")
  })

  it.each([
    [["--bogus"], /bogus/],
    [["--port", "http"], /--port/],
    [["--port", "70000"], /--port/],
    [["--app-url", "localhost"], /--app-url/],
    [["--redirect-uri", "/callback"], /--redirect-uri/],
    [["--consent", "always"], /--consent/],
    [["--logout-confirmation", "never"], /--logout-confirmation/],
    [["--post-logout-redirect-uri", "/bye"], /--post-logout-redirect-uri/],
    [["--backchannel-logout-uri", "bcl"], /--backchannel-logout-uri/],
    [["--backchannel-logout-uri", "http://localhost:3000/bcl", "--no-backchannel-logout"], /exclude each other/],
    [["--client-secret", ""], /--client-secret/],
    [["extra"], /argument/],
  ])("refuses %j with a UsageError naming the mistake", (args, message) => {
    expect(() => readCommandLine(args)).toThrow(UsageError)
    expect(() => readCommandLine(args)).toThrow(message)
  })
})

describe("runCommand", () => {
  it("prints a provider object and .env lines naming the issuer it listens on and its client", async () => {
    let printed = ""
    const idp = await runCommand(options(["--port", "0"]), (text) => (printed += text))
    started.push(idp)
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(printed).toContain(`issuer: "${idp.issuer}",`)
    expect(printed).toContain(`clientId: "dev-app",`)
    expect(printed).toContain(`clientSecret: "dev-app-secret",`)
    expect(printed).toContain("allowInsecureLoopbackRequests: true")
    expect(printed).toContain(`AUTH_DEV_IDP_ISSUER=${idp.issuer}\n`)
    expect(printed).toContain("alice@example.com / alice-password")
    expect(printed).toContain("http://localhost:3000/api/auth/signout/callback/dev-idp")
    expect(printed).toContain("logout tokens go to: http://localhost:3000/api/auth/backchannel-logout/dev-idp")
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string }
    expect(discovery.issuer).toBe(idp.issuer)
  })

  it("registers the printed client for the app's callback URL only", async () => {
    const idp = await runCommand(options(["--port", "0", "--app-url", "http://localhost:3000"]), () => undefined)
    started.push(idp)
    const authorize = (redirectUri: string) =>
      `${idp.issuer}/auth?${new URLSearchParams({ client_id: "dev-app", redirect_uri: redirectUri, response_type: "code", scope: "openid email", state: "s" }).toString()}`
    const browser = new TestBrowser()
    const login = await browser.navigate(authorize("http://localhost:3000/api/auth/callback/dev-idp"))
    expect(new URL(login.url).pathname).toMatch(/^\/interaction\//)
    const refused = await browser.navigate(authorize("http://localhost:3000/api/auth/callback/other"))
    expect(refused.response.status).toBe(400)
    expect(refused.body).toContain("redirect_uri")
  })

  it("registers the app's sign-out URL for the end-session endpoint", async () => {
    const idp = await runCommand(options(["--port", "0", "--app-url", "http://localhost:3000"]), () => undefined)
    started.push(idp)
    const endSession = (postLogoutRedirectUri: string) =>
      fetch(`${idp.issuer}/session/end?${new URLSearchParams({ client_id: "dev-app", post_logout_redirect_uri: postLogoutRedirectUri }).toString()}`)
    expect((await endSession("http://localhost:3000/api/auth/signout/callback/dev-idp")).status).toBe(200)
    const refused = await endSession("http://localhost:3000/elsewhere")
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("post_logout_redirect_uri not registered")
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(discovery).toMatchObject({ backchannel_logout_supported: true, revocation_endpoint: `${idp.issuer}/token/revocation` })
  })

  it("says when the port is taken", async () => {
    const first = await runCommand(options(["--port", "0"]), () => undefined)
    started.push(first)
    await expect(runCommand(options(["--port", String(first.port)]), () => undefined)).rejects.toMatchObject({ code: "EADDRINUSE" })
  })
})
