/**
 * The flow interface OAuth 1.0a and WebAuthn plug into: a provider that carries a flow under
 * `FLOW` is configured by it and served by it, and its extra routes exist only when configured.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { resolveConfig } from "../../src/config/config.js"
import { FLOW, lazyFlow, type SignInFlow } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { webauthn } from "../../src/webauthn/index.js"
import { Jar, call, csrfToken, testConfig, storeSession } from "../helpers.js"

interface EchoOptions {
  greeting: string
}

const calls: string[] = []

const echoFlow: SignInFlow<EchoOptions> = {
  name: "Echo",
  configure(config) {
    if (typeof config.greeting !== "string") throw new TypeError("greeting")
    return { greeting: config.greeting }
  },
  adapterMethods: () => ["getUser"],
  signIn(_context, provider, request) {
    calls.push(`signIn ${provider.id} ${request.callbackUrl}`)
    return Promise.resolve(new Response(provider.options.greeting))
  },
  callback(context, provider) {
    calls.push(`callback ${provider.id} ${context.request.method}`)
    return Promise.resolve(new Response("called back"))
  },
  routes: {
    "echo-options": {
      GET: (_context, provider) => Promise.resolve(Response.json({ greeting: provider.options.greeting })),
    },
  },
}

function echoConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  const provider = { id: "echo", name: "Echo", type: "webauthn", greeting: "hello", [FLOW]: echoFlow }
  return testConfig({ adapter: MemoryAdapter(), providers: [provider as never], ...overrides })
}

describe("sign-in flows carried by providers", () => {
  it("configures the provider through its flow and reports its declared type", async () => {
    const config = echoConfig()
    const provider = (await resolveConfig(config)).providersById.get("echo")
    expect(provider).toMatchObject({ type: "webauthn", options: { greeting: "hello" } })
    const listed: unknown = await (await call(config, new Jar(), "/api/auth/providers")).json()
    expect(listed).toMatchObject({ echo: { type: "webauthn" } })
  })

  it("dispatches the sign-in (after the CSRF check) and the callback to the flow", async () => {
    calls.length = 0
    const config = echoConfig()
    const jar = new Jar()
    const refused = await call(config, jar, "/api/auth/signin/echo", { form: { callbackUrl: "/after" } })
    expect(calls).toEqual([])
    expect(new URL(refused.headers.get("location") ?? "").searchParams.get("error")).toBe("MissingCSRF")
    const started = await call(config, jar, "/api/auth/signin/echo", { form: { csrfToken: await csrfToken(config, jar), callbackUrl: "/after" } })
    expect(await started.text()).toBe("hello")
    await call(config, jar, "/api/auth/callback/echo", { form: {} })
    expect(calls).toEqual(["signIn echo http://localhost:3000/after", "callback echo POST"])
  })

  it("serves the flow's own routes by method, and only for its providers", async () => {
    const config = echoConfig()
    expect(await (await call(config, new Jar(), "/api/auth/echo-options/echo")).json()).toEqual({ greeting: "hello" })
    const post = await call(config, new Jar(), "/api/auth/echo-options/echo", { method: "POST" })
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"])
    expect((await call(config, new Jar(), "/api/auth/echo-options/other")).status).toBe(400)
    expect((await call(testConfig(), new Jar(), "/api/auth/echo-options/echo")).status).toBe(404)
  })

  it("checks the adapter methods the flow needs, and refuses a webauthn provider without a flow", async () => {
    const provider = { id: "echo", name: "Echo", type: "webauthn", greeting: "hello", [FLOW]: echoFlow }
    await expect(resolveConfig(testConfig({ adapter: {}, providers: [provider as never] }))).rejects.toThrow(/getUser/)
    await expect(resolveConfig(testConfig({ providers: [{ id: "passkey", type: "webauthn" } as never] }))).rejects.toThrow(/Passkey\(\)/)
  })
})

describe("a flow's control on the built-in sign-in page", () => {
  const decorated: SignInFlow<EchoOptions> = {
    ...echoFlow,
    async page(_context, provider, response, page) {
      const body = await response.text()
      return new Response(body.replace("</main>", `<p id="echo">${provider.options.greeting} ${page.csrfToken.length > 0 ? "with" : "without"} token</p></main>`), response)
    },
  }

  it("lets the flow change the page it is handed, and shows no button for a webauthn provider", async () => {
    const provider = { id: "echo", name: "Echo", type: "webauthn", greeting: "hello", [FLOW]: decorated }
    const response = await call(testConfig({ adapter: MemoryAdapter(), providers: [provider as never] }), new Jar(), "/api/auth/signin")
    const body = await response.text()
    expect(body).toContain('<p id="echo">hello with token</p>')
    expect(body).not.toContain("/api/auth/signin/echo")
    expect(response.headers.get("content-type")).toContain("text/html")
  })

  it("puts the passkey control after the other providers' forms, set apart by \"or\" only when there are some", async () => {
    const passkey = { id: "passkey", name: "Passkey", type: "webauthn", [FLOW]: webauthn }
    const oauth = { id: "acme", name: "Acme", type: "oauth", clientId: "id", clientSecret: "secret", authorization: "https://acme.example/authorize", token: "https://acme.example/token", userinfo: "https://acme.example/me" }
    const both = await (await call(testConfig({ adapter: MemoryAdapter(), providers: [passkey as never, oauth as never] }), new Jar(), "/api/auth/signin")).text()
    expect(both.indexOf("/api/auth/signin/acme")).toBeLessThan(both.indexOf('class="or"'))
    expect(both.indexOf('class="or"')).toBeLessThan(both.indexOf("data-passkey-form"))
    const alone = await (await call(testConfig({ adapter: MemoryAdapter(), providers: [passkey as never] }), new Jar(), "/api/auth/signin")).text()
    expect(alone).toContain("data-passkey-form")
    expect(alone).not.toContain('class="or"')
  })

  it("leaves the page of an app without such a flow free of any script", async () => {
    const response = await call(echoConfig(), new Jar(), "/api/auth/signin")
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src/)
    expect(await response.text()).not.toContain("<script")
  })
})

describe("flows fetched on first use", () => {
  it("loads and configures the flow on the first request only, and reports a bad option then", async () => {
    let loads = 0
    const flow = lazyFlow({
      name: "Echo",
      load: () => {
        loads++
        return Promise.resolve(echoFlow as unknown as SignInFlow<never>)
      },
      adapterMethods: ["getUser"],
    })
    const provider = { id: "echo", name: "Echo", type: "oauth", greeting: "hi", [FLOW]: flow }
    const config = testConfig({ adapter: MemoryAdapter(), providers: [provider as never] })
    expect((await resolveConfig(config)).providersById.get("echo")).toMatchObject({ type: "oauth" })
    expect(loads).toBe(0)
    const jar = new Jar()
    const started = await call(config, jar, "/api/auth/signin/echo", { form: { csrfToken: await csrfToken(config, jar) } })
    expect(await started.text()).toBe("hi")
    await call(config, jar, "/api/auth/signin/echo", { form: { csrfToken: await csrfToken(config, jar) } })
    expect(loads).toBe(1)

    const broken = testConfig({ adapter: MemoryAdapter(), providers: [{ ...provider, greeting: 42 } as never] })
    const refused = await call(broken, new Jar(), "/api/auth/callback/echo")
    expect(refused.status).toBeGreaterThanOrEqual(300)
    await expect(resolveConfig(testConfig({ adapter: {}, providers: [provider as never] }))).rejects.toThrow(/getUser/)
  })
})

describe("a lazy flow's accounts", () => {
  async function signedIn(flow: object): Promise<{ config: AuthConfig; jar: Jar }> {
    const store = MemoryAdapter()
    const provider = { id: "echo", name: "Echo", type: "oauth", greeting: "hi", [FLOW]: flow }
    const config = testConfig({ adapter: store, session: { strategy: "database" }, providers: [provider as never] })
    const user = await store.createUser({ email: null, emailVerified: null })
    for (const id of ["e-1", "e-2"]) await store.linkAccount({ userId: user.id, type: "oauth", provider: "echo", providerAccountId: id })
    await storeSession(store, { sessionToken: "echo-session", userId: user.id, expires: new Date(Date.now() + 60_000) }, { methods: ["fed"] })
    const jar = new Jar()
    jar.cookies.set("authjs.session-token", "echo-session")
    return { config, jar }
  }

  it("are unlinked when its adapter methods link accounts, and the loaded flow hears of it", async () => {
    const unlinked: string[] = []
    const real = { ...echoFlow, accounts: { unlinked: (_context, _provider, account) => Promise.resolve(void unlinked.push(account.providerAccountId)) } } satisfies SignInFlow<EchoOptions>
    const { config, jar } = await signedIn(lazyFlow({ name: "Echo", load: () => Promise.resolve(real as unknown as SignInFlow<never>), adapterMethods: ["getUser", "linkAccount"] }))
    const response = await call(config, jar, "/api/auth/accounts/unlink", { form: { csrfToken: await csrfToken(config, jar), provider: "echo", providerAccountId: "e-1" } })
    expect(await response.json()).toEqual({ unlinked: { provider: "echo", providerAccountId: "e-1" } })
    expect(unlinked).toEqual(["e-1"])
  })

  it("are not a user's to unlink when its adapter methods link none", async () => {
    const { config, jar } = await signedIn(lazyFlow({ name: "Echo", load: () => Promise.resolve(echoFlow as unknown as SignInFlow<never>), adapterMethods: ["getUser"] }))
    const response = await call(config, jar, "/api/auth/accounts/unlink", { form: { csrfToken: await csrfToken(config, jar), provider: "echo", providerAccountId: "e-1" } })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "UnknownAccount" })
  })
})
