// Abuse limits keyed by the target (issue 28, first stage): sign-in mail per address, and failed
// password attempts per account. Each answer over a limit must read exactly like one under it.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { describe, expect, it, vi } from "vitest"
import { forwardedFor } from "../../src/client-address.js"
import { memoryRateLimitStore } from "../../src/limits/rate-limit-store.js"
import type { SendVerificationRequestParams } from "../../src/providers/index.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, PASSWORD, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"

/** What a client can tell from an answer: its status, body and header names (cookie values and dates aside). */
async function shape(response: Response): Promise<string> {
  const names = [...response.headers.keys()].sort().join(",")
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]).join(",")
  const target = response.headers.get("location")
  return JSON.stringify([response.status, await response.text(), names, cookies, target])
}

function emailConfig(sent: SendVerificationRequestParams[], overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    providers: [
      {
        id: "email",
        name: "Email",
        type: "email",
        sendVerificationRequest: (params) => {
          sent.push(params)
        },
      },
    ],
    ...overrides,
  })
}

async function askForLink(config: AuthConfig, jar: Jar, email: string, from: string): Promise<Response> {
  const token = await csrfToken(config, jar)
  return call(config, jar, "/api/auth/signin/email", {
    method: "POST",
    headers: { "x-forwarded-for": from },
    form: new URLSearchParams({ csrfToken: token, email, callbackUrl: "/" }),
  })
}

describe("sign-in mail per address", () => {
  it("sends at most 3 links to one address for 1,000 requests from 100 clients, every answer alike", async () => {
    const sent: SendVerificationRequestParams[] = []
    // Each client known by its address (one proxy appends it), so the per-client limits count too:
    // 10 sign-in starts each stay under them, and the mail limit alone decides, without a trace.
    const config = emailConfig(sent, { clientAddress: forwardedFor({ proxies: 1 }) })
    const jar = new Jar()
    const shapes = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      const response = await askForLink(config, jar, i % 2 === 0 ? "victim@example.com" : "VICTIM@example.com", `198.51.100.${String(i % 100)}`)
      shapes.add(await shape(response))
    }
    expect(sent).toHaveLength(3)
    expect(shapes.size).toBe(1)
    expect([...shapes][0]).toMatch(/^\[302,/)
    // The per-client limits were counting: the 31st sign-in start of one of those clients is refused.
    const more: number[] = []
    for (let i = 0; i < 21; i++) more.push((await askForLink(config, jar, `other-${String(i)}@example.com`, "198.51.100.0")).status)
    expect(more.indexOf(429)).toBe(20)
    // Another address has its own allowance.
    await askForLink(config, jar, "someone@example.com", "198.51.100.1")
    expect(sent.map((params) => params.identifier).slice(-1)).toEqual(["someone@example.com"])
    expect(sent.filter((params) => params.identifier === "victim@example.com")).toHaveLength(3)
  })

  it("stores no token for a link it does not send", async () => {
    const sent: SendVerificationRequestParams[] = []
    const adapter = MemoryAdapter()
    const created: string[] = []
    const config = emailConfig(sent, {
      adapter: { ...adapter, createVerificationToken: (token) => (created.push(token.identifier), adapter.createVerificationToken(token)) },
      rateLimit: { mailPerAddress: { limit: 1 } },
    })
    const jar = new Jar()
    for (let i = 0; i < 5; i++) await askForLink(config, jar, "ada@example.com", "192.0.2.1")
    expect(sent).toHaveLength(1)
    expect(created).toHaveLength(1)
  })

  it("sends every link with rateLimit: false", async () => {
    const sent: SendVerificationRequestParams[] = []
    const config = emailConfig(sent, { rateLimit: false })
    const jar = new Jar()
    for (let i = 0; i < 5; i++) await askForLink(config, jar, "ada@example.com", "192.0.2.1")
    expect(sent).toHaveLength(5)
  })

  it("counts in the configured store, which instances share", async () => {
    const store = memoryRateLimitStore()
    const sent: SendVerificationRequestParams[] = []
    const adapter = MemoryAdapter()
    const first = emailConfig(sent, { adapter, rateLimit: { store } })
    const second = emailConfig(sent, { adapter, rateLimit: { store } })
    for (let i = 0; i < 4; i++) await askForLink(i % 2 === 0 ? first : second, new Jar(), "ada@example.com", "192.0.2.1")
    expect(sent).toHaveLength(3)
  })

  it("counts every spelling of one inbox against one allowance (tags, Gmail dots, googlemail, full-width, IDN, case), mailing each as given", async () => {
    const sent: SendVerificationRequestParams[] = []
    const config = emailConfig(sent)
    const gmail = ["victim@gmail.com", "Victim+1@gmail.com", "v.i.c.t.i.m@gmail.com", "victim@googlemail.com", "vic.tim+x@GoogleMail.com", "ｖｉｃｔｉｍ@gmail.com", "victim@ｇｍａｉｌ.ｃｏｍ", "VICTIM+2@GMAIL.COM"]
    const idn = ["ada@bücher.example", "ada@xn--bcher-kva.example", "Ada+news@BÜCHER.example", "ａｄａ@ｂüｃｈｅｒ.example"]
    for (const address of [...gmail, ...gmail, ...gmail, ...idn, ...idn, ...idn]) await askForLink(config, new Jar(), address, "192.0.2.1")
    expect(sent.map((params) => params.identifier)).toEqual(["victim@gmail.com", "victim+1@gmail.com", "v.i.c.t.i.m@gmail.com", "ada@bücher.example", "ada@xn--bcher-kva.example", "ada+news@bücher.example"])
  })
})

describe("failed password attempts per account", () => {
  async function submit(config: AuthConfig, jar: Jar, username: string, password: string): Promise<Response> {
    const token = await csrfToken(config, jar)
    return call(config, jar, "/api/auth/callback/credentials", {
      method: "POST",
      form: new URLSearchParams({ csrfToken: token, username, password, callbackUrl: "/" }),
    })
  }

  it("calls authorize at most 10 times for 1,000 wrong passwords, answering every attempt as a wrong password, the right one included", async () => {
    let asked = 0
    const provider = passwordProvider()
    const config = testConfig({
      providers: [{ ...provider, authorize: (credentials, request) => (asked++, provider.authorize(credentials, request)) }],
    })
    const jar = new Jar()
    const wrong = new Set<string>()
    for (let i = 0; i < 1000; i++) wrong.add(location(await submit(config, jar, i % 2 === 0 ? "ada" : " ADA ", `guess-${String(i)}`)).href)
    expect(asked).toBe(10)
    expect(wrong.size).toBe(1)
    // The owner's password is refused too while the account is paused, and alike.
    const right = await submit(config, jar, "ada", PASSWORD)
    expect(location(right).href).toBe([...wrong][0])
    expect(asked).toBe(10)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    // Another account is not paused.
    await submit(config, jar, "grace", "whatever")
    expect(asked).toBe(11)
  })

  it("calls authorize at most 10 times for 200 concurrent wrong passwords", async () => {
    let asked = 0
    const provider = passwordProvider()
    const config = testConfig({
      providers: [{ ...provider, authorize: async (credentials, request) => {
        asked++
        // A slow password check, as a real hash is: every guess is in flight before the first is refused.
        await new Promise((resolve) => setTimeout(resolve, 20))
        return provider.authorize(credentials, request)
      } }],
    })
    const jars = Array.from({ length: 200 }, () => new Jar())
    const tokens = await Promise.all(jars.map((jar) => csrfToken(config, jar)))
    const answers = await Promise.all(jars.map((jar, i) => call(config, jar, "/api/auth/callback/credentials", {
      method: "POST",
      form: new URLSearchParams({ csrfToken: tokens[i] ?? "", username: "ada", password: `guess-${String(i)}`, callbackUrl: "/" }),
    })))
    expect(asked).toBe(10)
    expect(new Set(answers.map((answer) => location(answer).href)).size).toBe(1)
  })

  it("V6.3.1: keeps an account paused for every spelling its authorize folds to it (full-width, case, space)", async () => {
    let asked = 0
    const fold = (name: string) => name.normalize("NFKC").trim().toLowerCase()
    const provider = passwordProvider()
    const config = testConfig({
      providers: [{ ...provider, authorize: (credentials, request) => (asked++, provider.authorize({ ...credentials, username: fold(credentials.username ?? "") }, request)) }],
    })
    for (let i = 0; i < 10; i++) await submit(config, new Jar(), "ada", `guess-${String(i)}`)
    expect(asked).toBe(10)
    const jar = new Jar()
    for (const spelling of ["ＡＤＡ", "ａｄａ", "Ａｄａ", "ａDａ", "\u3000ada\u3000", "ADA"]) {
      await submit(config, jar, spelling, `guess-${spelling}`)
      await submit(config, jar, spelling, PASSWORD)
    }
    expect(asked).toBe(10)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("V6.3.1: keeps an account paused while a flood of 100,000 throw-away identifiers fills the memory store", async () => {
    let asked = 0
    const store = memoryRateLimitStore()
    const provider = passwordProvider()
    const config = testConfig({
      rateLimit: { store },
      providers: [{ ...provider, authorize: (credentials, request) => (asked++, provider.authorize(credentials, request)) }],
    })
    for (let i = 0; i < 11; i++) await submit(config, new Jar(), "ada", `guess-${String(i)}`)
    expect(asked).toBe(10)
    // With no client address the per-client limits are off: each throw-away name is one failed
    // attempt, counted in the same store under the key the credentials flow gives it.
    // The memory store reads keys as opaque strings: plain ones spare 100,000 digests.
    for (let i = 0; i < 100_001; i++) await store.hit(`password credentials:throwaway-${String(i)}`, 900)
    const jar = new Jar()
    for (let i = 0; i < 10; i++) await submit(config, jar, "ada", i === 9 ? PASSWORD : `again-${String(i)}`)
    expect(asked).toBe(10)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
  })

  it("forgets the failures after a successful sign-in", async () => {
    let asked = 0
    const provider = passwordProvider()
    const config = testConfig({
      providers: [{ ...provider, authorize: (credentials, request) => (asked++, provider.authorize(credentials, request)) }],
      rateLimit: { credentials: { failures: 3 } },
    })
    for (let i = 0; i < 2; i++) await submit(config, new Jar(), "ada", "wrong")
    expect(location(await submit(config, new Jar(), "ada", PASSWORD)).pathname).toBe("/")
    for (let i = 0; i < 2; i++) await submit(config, new Jar(), "ada", "wrong")
    expect(location(await submit(config, new Jar(), "ada", PASSWORD)).pathname).toBe("/")
    expect(asked).toBe(6)
  })

  it("leaves the owner another way in: an email link signs in while the password is paused", async () => {
    const sent: SendVerificationRequestParams[] = []
    const adapter = MemoryAdapter()
    const config = testConfig({
      adapter,
      session: { strategy: "jwt" },
      rateLimit: { credentials: { failures: 2 } },
      providers: [
        passwordProvider({ credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } } as never, authorize: () => null }),
        { id: "email", name: "Email", type: "email", sendVerificationRequest: (params) => void sent.push(params) },
      ],
    })
    const jar = new Jar()
    for (let i = 0; i < 3; i++) {
      const token = await csrfToken(config, jar)
      await call(config, jar, "/api/auth/callback/credentials", {
        method: "POST",
                form: new URLSearchParams({ csrfToken: token, email: "ada@example.com", password: "wrong" }),
      })
    }
    const token = await csrfToken(config, jar)
    await call(config, jar, "/api/auth/signin/email", { method: "POST", form: new URLSearchParams({ csrfToken: token, email: "ada@example.com" }) })
    expect(sent).toHaveLength(1)
    const link = new URL(sent[0]?.url ?? "")
    const confirm = await csrfToken(config, jar)
    const signedIn = await call(config, jar, link.pathname, {
      method: "POST",
            form: new URLSearchParams({ csrfToken: confirm, token: link.searchParams.get("token") ?? "", email: "ada@example.com", callbackUrl: "/" }),
    })
    expect(signedIn.status).toBe(302)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("refuses unusable limits at start, naming the option", async () => {
    for (const [rateLimit, option] of [
      [{ mailPerAddress: { limit: 0 } }, "rateLimit.mailPerAddress.limit"],
      [{ credentials: { lockout: 1.5 } }, "rateLimit.credentials.lockout"],
      [{ store: {} }, "rateLimit.store"],
      ["on", "rateLimit"],
    ] as const) {
      const errors: string[] = []
      const config = testConfig({ rateLimit: rateLimit as never, logger: { error: (error) => errors.push(error.message), warn: () => undefined } })
      expect((await call(config, new Jar(), "/api/auth/providers")).status).toBe(503)
      expect(errors.join("\n")).toContain(`\`${option}\``)
    }
    const config = testConfig({ providers: [passwordProvider({ identifierField: "nickname" as never })] })
    expect((await call(config, new Jar(), "/api/auth/providers")).status).toBe(503)
  })
})

describe("the memory store's eviction (100,000 counters)", () => {
  it("lets ended windows go before any live counter, however high their counts", async () => {
    const store = memoryRateLimitStore()
    const now = Date.now()
    const clock = vi.spyOn(Date, "now").mockReturnValue(now)
    try {
      for (let i = 0; i < 20_000; i++) for (let hit = 0; hit < 2; hit++) await store.hit(`short-${String(i)}`, 1)
      for (let i = 0; i < 80_000; i++) await store.hit(`live-${String(i)}`, 900)
      clock.mockReturnValue(now + 2_000)
      await store.hit("new", 900)
      expect((await store.peek("live-0")).count).toBe(1)
      expect((await store.peek("new")).count).toBe(1)
    } finally {
      clock.mockRestore()
    }
  })

  it("lets the lowest counts go first, the oldest window first among equals", async () => {
    const store = memoryRateLimitStore()
    for (let hit = 0; hit < 2; hit++) await store.hit("twice", 900)
    for (let i = 0; i < 100_000; i++) await store.hit(`once-${String(i)}`, 900)
    expect((await store.peek("twice")).count).toBe(2)
    expect((await store.peek("once-0")).count).toBe(0)
    expect((await store.peek("once-99999")).count).toBe(1)
  })

  it("still lets a counter go when a flood counts each of its own targets at least as often (as SECURITY.md says)", async () => {
    const store = memoryRateLimitStore()
    for (let hit = 0; hit < 2; hit++) await store.hit("paused", 900)
    for (let i = 0; i < 100_000; i++) for (let hit = 0; hit < 2; hit++) await store.hit(`flood-${String(i)}`, 900)
    expect((await store.peek("paused")).count).toBe(0)
  })
})
