/**
 * Deleting passkeys through `Auth()` never leaves a user without a way to sign in: not the last
 * passkey, not when the other way is an account at a provider no longer configured or a never
 * verified email, and not when two deletes race for the last two passkeys.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { Adapter } from "../../src/adapters.js"
import { FLOW } from "../../src/providers/index.js"
import type { AuthConfig, MailMessage } from "../../src/types.js"
import { webauthn } from "../../src/webauthn/index.js"
import { Jar, ORIGIN, acmeProvider, call, csrfToken, testConfig } from "../helpers.js"
import { SoftAuthenticator } from "./authenticator.js"

type Options = { challenge: string; rp: { id?: string }; user: { id: string } }

const passkey = { id: "passkey", name: "Passkey", type: "webauthn", formFields: { email: { label: "Email", required: true } }, [FLOW]: webauthn }
const email = { id: "email", name: "Email", type: "email", sendVerificationRequest: () => undefined }

function configWith(adapter: Adapter, others: object[] = [], extra: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ adapter, providers: [passkey, ...others] as never, ...extra })
}

async function options(config: AuthConfig, jar: Jar, query = ""): Promise<Options> {
  if (!jar.cookies.size) await csrfToken(config, jar)
  return ((await (await call(config, jar, `/api/auth/webauthn-options/passkey${query}`)).json()) as { options: Options }).options
}

async function register(config: AuthConfig, jar: Jar, device: SoftAuthenticator, query = ""): Promise<void> {
  const data = JSON.stringify(await device.create(await options(config, jar, query)))
  const response = await call(config, jar, "/api/auth/callback/passkey", { form: { action: "register", data, csrfToken: await csrfToken(config, jar), callbackUrl: `${ORIGIN}/account` } })
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
}

/**
 * A user signed up with `passkeys` passkeys, signed in in `jar`, on an app that then also
 * configures `others` (with an email provider, a passkey sign-up would start with an email link).
 */
async function signedUp(adapter: Adapter & Required<Pick<Adapter, "listAuthenticatorsByUserId">>, others: object[] = [], passkeys = 1, extra: Partial<AuthConfig> = {}) {
  const signUp = configWith(adapter, [], extra)
  const config = configWith(adapter, others, extra)
  const jar = new Jar()
  await register(signUp, jar, new SoftAuthenticator(ORIGIN), "?action=register&email=ada%40example.com")
  for (let more = 1; more < passkeys; more++) await register(signUp, jar, new SoftAuthenticator(ORIGIN))
  const session = (await (await call(config, jar, "/api/auth/session")).json()) as { user: { id: string } }
  const userId = session.user.id
  const ids = async (): Promise<string[]> => (await adapter.listAuthenticatorsByUserId(userId)).map((authenticator) => authenticator.credentialID)
  const remove = async (credentialId: string): Promise<Response> =>
    call(config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "delete", credentialId, csrfToken: await csrfToken(config, jar) } })
  return { config, jar, userId, ids, remove }
}

async function expectKept(response: Response, because?: RegExp): Promise<void> {
  expect(response.status).toBe(409)
  const body = (await response.json()) as { error: string; code: string; message: string }
  expect(body).toMatchObject({ error: "WebAuthnVerificationError", code: "last_sign_in_method" })
  expect(body.message).toMatch(/last way to sign in/)
  if (because !== undefined) expect(body.message).toMatch(because)
}

/** Lets `parties` calls through together, once all of them have arrived. */
function barrier(parties: number): () => Promise<void> {
  let arrived = 0
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  return async () => {
    arrived += 1
    if (arrived === parties) open()
    await opened
  }
}

describe("deleting a passkey keeps a way to sign in", () => {
  it("refuses to delete a user's only passkey", async () => {
    const user = await signedUp(MemoryAdapter())
    const [only = ""] = await user.ids()
    await expectKept(await user.remove(only))
    expect(await user.ids()).toEqual([only])
  })

  it("deletes one of two passkeys, then refuses the other", async () => {
    const user = await signedUp(MemoryAdapter(), [], 2)
    const [first = "", second = ""] = await user.ids()
    expect((await user.remove(first)).status).toBe(200)
    await expectKept(await user.remove(second))
    expect(await user.ids()).toEqual([second])
  })

  it("deletes the last passkey of a user with an account at a configured OAuth provider", async () => {
    const adapter = MemoryAdapter()
    const user = await signedUp(adapter, [acmeProvider()])
    await adapter.linkAccount({ userId: user.userId, type: "oauth", provider: "acme", providerAccountId: "ada-at-acme" })
    const [only = ""] = await user.ids()
    expect((await user.remove(only)).status).toBe(200)
    expect(await user.ids()).toEqual([])
  })

  it("does not count an account at a provider the app no longer configures", async () => {
    const adapter = MemoryAdapter()
    const user = await signedUp(adapter, [acmeProvider()])
    await adapter.linkAccount({ userId: user.userId, type: "oauth", provider: "github", providerAccountId: "ada-at-github" })
    await expectKept(await user.remove((await user.ids())[0] ?? ""))
  })

  it("deletes the last passkey of a user whose email is verified, where an email provider is configured", async () => {
    const adapter = MemoryAdapter()
    const user = await signedUp(adapter, [email])
    await adapter.updateUser({ id: user.userId, emailVerified: new Date() })
    expect((await user.remove((await user.ids())[0] ?? "")).status).toBe(200)
    expect(await user.ids()).toEqual([])
  })

  it("does not count a never-verified email (a passkey sign-up's), which no email link opens", async () => {
    const user = await signedUp(MemoryAdapter(), [email])
    await expectKept(await user.remove((await user.ids())[0] ?? ""))
  })

  it("does not count a verified email without an email provider", async () => {
    const adapter = MemoryAdapter()
    const user = await signedUp(adapter)
    await adapter.updateUser({ id: user.userId, emailVerified: new Date() })
    await expectKept(await user.remove((await user.ids())[0] ?? ""))
  })

  it("refuses, and says why, when the adapter cannot list accounts (no listAccountsByUserId)", async () => {
    const memory = MemoryAdapter()
    const { listAccountsByUserId: _lacking, ...adapter } = memory
    const user = await signedUp(adapter, [acmeProvider()])
    await memory.linkAccount({ userId: user.userId, type: "oauth", provider: "acme", providerAccountId: "ada-at-acme" })
    await expectKept(await user.remove((await user.ids())[0] ?? ""), /no `listAccountsByUserId`/)
    expect(await user.ids()).toHaveLength(1)
  })
})

describe("two deletes at once of a user's last two passkeys", () => {
  it("leave one passkey when both pass the first check before either deletes", async () => {
    const memory = MemoryAdapter()
    const bothChecked = barrier(2)
    // Each delete waits for the other request to have checked too: the race at its worst.
    const adapter: Adapter = { ...memory, deleteAuthenticator: async (id) => (await bothChecked(), memory.deleteAuthenticator(id)) }
    const user = await signedUp({ ...adapter, listAuthenticatorsByUserId: memory.listAuthenticatorsByUserId }, [], 2)
    const [first = "", second = ""] = await user.ids()
    const answers = await Promise.all([user.remove(first), user.remove(second)])
    expect(answers.map((answer) => answer.status)).toContain(409)
    expect((await user.ids()).length).toBeGreaterThan(0)
  })

  it("leave one passkey when they simply run together", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await signedUp(MemoryAdapter(), [], 2)
      const [first = "", second = ""] = await user.ids()
      const answers = await Promise.all([user.remove(first), user.remove(second)])
      expect(answers.map((answer) => answer.status)).toContain(409)
      expect(await user.ids()).toHaveLength(2 - answers.filter((answer) => answer.status === 200).length)
      expect((await user.ids()).length).toBeGreaterThan(0)
    }
  })
})

describe("a stale session and the user's passkeys (issue 38)", () => {
  /** The clock `seconds` ahead of now, for what follows in the test. */
  function later(seconds: number): void {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + seconds * 1000)
  }
  afterEach(() => {
    vi.useRealTimers()
  })
  const json = { accept: "application/json" }

  it("V7.5.1: deleting a passkey past session.reauthAge answers 403 ReauthRequired and deletes nothing", async () => {
    const user = await signedUp(MemoryAdapter(), [], 2)
    const [first] = await user.ids()
    later(601)
    const response = await call(user.config, user.jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "delete", credentialId: first ?? "", csrfToken: await csrfToken(user.config, user.jar) }, headers: json })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "ReauthRequired", url: `${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(ORIGIN)}` })
    expect(await user.ids()).toHaveLength(2)
  })

  it("V7.5.1: a stale session gets no registration options to add a passkey (refused before the ceremony)", async () => {
    const user = await signedUp(MemoryAdapter())
    later(601)
    const response = await call(user.config, user.jar, "/api/auth/webauthn-options/passkey", { headers: json })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "ReauthRequired" })
  })

  it("V7.5.1: a registration finished after the session went stale adds no passkey", async () => {
    const user = await signedUp(MemoryAdapter())
    later(590)
    const data = JSON.stringify(await new SoftAuthenticator(ORIGIN).create(await options(user.config, user.jar)))
    later(11)
    const response = await call(user.config, user.jar, "/api/auth/callback/passkey", { form: { action: "register", data, csrfToken: await csrfToken(user.config, user.jar), callbackUrl: `${ORIGIN}/account` } })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/reauth?callbackUrl=${encodeURIComponent(`${ORIGIN}/account`)}`)
    expect(await user.ids()).toHaveLength(1)
  })

  it("renaming one needs no recent authentication (it removes no way in)", async () => {
    const user = await signedUp(MemoryAdapter())
    const [first] = await user.ids()
    later(601)
    const response = await call(user.config, user.jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "rename", name: "Work key", credentialId: first ?? "", csrfToken: await csrfToken(user.config, user.jar) } })
    expect(response.status).toBe(200)
  })
})

describe("notices of added and removed passkeys (OWASP ASVS v5 6.3.7)", () => {
  function noticed(mails: MailMessage[]): string[][] {
    for (const mail of mails) {
      expect(mail.url).toBeUndefined()
      expect(mail.code).toBeUndefined()
      expect(`${mail.subject} ${mail.text} ${mail.html}`).not.toMatch(/https?:|\/api\/auth|token|credential|\b\d{6}\b/i)
    }
    return mails.map(({ to, kind, subject }) => [to, kind, subject])
  }

  it("the first passkey of the account its sign-up made sends none; one added while signed in and one deleted each mail the owner", async () => {
    const mails: MailMessage[] = []
    const user = await signedUp(MemoryAdapter(), [], 1, { mail: { send: (message) => void mails.push(message) } })
    expect(mails).toEqual([])

    await register(user.config, user.jar, new SoftAuthenticator(ORIGIN))
    expect(noticed(mails)).toEqual([["ada@example.com", "notice", "A passkey was added"]])

    const [first = ""] = await user.ids()
    expect((await user.remove(first)).status).toBe(200)
    expect(noticed(mails)).toEqual([
      ["ada@example.com", "notice", "A passkey was added"],
      ["ada@example.com", "notice", "A passkey was removed"],
    ])
  })

  it("adding a passkey while signed in keeps the session: the same one listed, not a second device", async () => {
    const user = await signedUp(MemoryAdapter())
    const list = async () => ((await (await call(user.config, user.jar, "/api/auth/sessions")).json()) as { id: string; current: boolean }[]).map(({ id, current }) => ({ id, current }))
    const before = await list()
    expect(before).toHaveLength(1)
    await register(user.config, user.jar, new SoftAuthenticator(ORIGIN))
    expect(await user.ids()).toHaveLength(2)
    expect(await list()).toEqual(before)
  })

  it("sends none for a delete refused as the user's last way in", async () => {
    const mails: MailMessage[] = []
    const user = await signedUp(MemoryAdapter(), [], 1, { mail: { send: (message) => void mails.push(message) } })
    await expectKept(await user.remove((await user.ids())[0] ?? ""))
    expect(mails).toEqual([])
  })
})
