/**
 * A passkey as the second factor (`mfa.factors: ["passkey"]`): who owes one, the options for the
 * pending user at `GET /webauthn-options/passkey?action=mfa`, and `POST /mfa/verify { factor:
 * "passkey", credential }`, with every refusal named for the attack it stops.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuditEvent, AuthConfig, MfaOptions } from "../../src/types.js"
import { Jar, ORIGIN, PASSWORD, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"
import { FLAGS, SoftAuthenticator, b64url, type SoftPasskey } from "./authenticator.js"
import { options, passkeyProvider, post, session } from "./harness.js"

const USERS: Record<string, string> = { ada: "user-ada", bob: "user-bob" }

interface Ctx {
  config: AuthConfig
  audits: AuditEvent[]
  errors: string[]
}

function setup(mfa: MfaOptions = { factors: ["passkey"] }, provider: Record<string, unknown> = {}): Ctx {
  const adapter = MemoryAdapter({ users: Object.entries(USERS).map(([name, id]) => ({ id, name, email: `${name}@example.com`, emailVerified: null })) })
  const audits: AuditEvent[] = []
  const errors: string[] = []
  const credentials = passwordProvider({
    authorize: ({ username, password }) => (password === PASSWORD && typeof username === "string" && Object.hasOwn(USERS, username) ? { id: USERS[username] ?? "", email: `${username}@example.com` } : null),
  })
  const config = testConfig({
    adapter,
    providers: [credentials, passkeyProvider({ formFields: {}, ...provider }) as never],
    mfa,
    events: { audit: (event) => void audits.push(event) },
    logger: { error: (error) => void errors.push(error.message), warn: () => undefined },
  })
  return { config, audits, errors }
}

async function passwordSignIn(config: AuthConfig, username: string, jar = new Jar()): Promise<{ jar: Jar; response: Response }> {
  const response = await call(config, jar, "/api/auth/callback/credentials", { form: { csrfToken: await csrfToken(config, jar), username, password: PASSWORD, callbackUrl: `${ORIGIN}/dashboard` } })
  return { jar, response }
}

/** Signs `username` in before they have a passkey, and adds `count` passkeys to them on `device`. */
async function enrol(config: AuthConfig, username: string, device: SoftAuthenticator, count: number): Promise<SoftPasskey[]> {
  const { jar } = await passwordSignIn(config, username)
  for (let i = 0; i < count; i++) {
    const { action, options: creation } = await options(config, jar)
    expect(action).toBe("register")
    await post(config, jar, "register", await device.create(creation))
  }
  return device.passkeys.slice(-count)
}

async function pend(config: AuthConfig, username = "ada", browser = new Jar()): Promise<Jar> {
  const { jar, response } = await passwordSignIn(config, username, browser)
  expect(location(response).pathname).toBe("/api/auth/mfa")
  return jar
}

async function mfaOptions(config: AuthConfig, jar: Jar) {
  const response = await call(config, jar, "/api/auth/webauthn-options/passkey?action=mfa", { headers: { accept: "application/json" } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { options: { challenge: string; rpId?: string; allowCredentials: { id: string }[]; userVerification: string } }).options
}

async function verify(config: AuthConfig, jar: Jar, credential: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "passkey", credential: JSON.stringify(credential) }, headers })
}

function secondFactorFailures(audits: AuditEvent[]): AuditEvent[] {
  return audits.filter((event) => event.type === "secondFactor" && event.outcome === "failure")
}

describe("passkeys as a second factor", () => {
  it("V6.3.3: completes a password sign-in with one of the user's passkeys: options name only hers, level 2 with hwk and mfa", async () => {
    const ctx = setup()
    const device = new SoftAuthenticator(ORIGIN)
    const own = await enrol(ctx.config, "ada", device, 2)
    await enrol(ctx.config, "bob", new SoftAuthenticator(ORIGIN), 1)
    const jar = await pend(ctx.config)
    expect(await session(ctx.config, jar)).toBeNull()
    expect(await (await call(ctx.config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["passkey"] })
    const request = await mfaOptions(ctx.config, jar)
    expect(request.allowCredentials.map((allowed) => allowed.id).sort()).toEqual(own.map((passkey) => b64url(passkey.id)).sort())
    expect(request.userVerification).toBe("required")
    // A script may post JSON, the assertion as an object.
    const body = JSON.stringify({ csrfToken: await csrfToken(ctx.config, jar), factor: "passkey", credential: await device.get(request, {}, own[0]) })
    const response = await call(ctx.config, jar, "/api/auth/mfa/verify", { body, headers: { "content-type": "application/json", accept: "application/json" } })
    expect(await response.json()).toEqual({ url: `${ORIGIN}/dashboard` })
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 2, methods: ["pwd", "hwk", "mfa"] })
    expect(ctx.audits.filter((event) => event.type !== "passkeyAdd").slice(-3).map((event) => [event.type, event.outcome, event.methods])).toEqual([
      ["signIn", "pending", ["pwd"]],
      ["secondFactor", "success", ["hwk"]],
      ["signIn", "success", ["pwd", "hwk", "mfa"]],
    ])
  })

  it("a passkey with user verification still signs in at once (WebAuthn §6.2.3): it owes nothing", async () => {
    const ctx = setup()
    const device = new SoftAuthenticator(ORIGIN)
    await enrol(ctx.config, "ada", device, 1)
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    expect(location(await post(ctx.config, jar, "authenticate", await device.get(request))).href).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 2, methods: ["hwk", "user"] })
  })

  it("refuses another user's passkey (wrongUser), counting it against the pending sign-in: the 5th refusal ends it (V6.3.1)", async () => {
    const ctx = setup()
    await enrol(ctx.config, "ada", new SoftAuthenticator(ORIGIN), 1)
    const bob = new SoftAuthenticator(ORIGIN)
    await enrol(ctx.config, "bob", bob, 1)
    const jar = await pend(ctx.config)
    for (let i = 1; i <= 5; i++) {
      const response = await verify(ctx.config, jar, await bob.get(await mfaOptions(ctx.config, jar)))
      expect(location(response).href).toBe(i < 5 ? `${ORIGIN}/api/auth/mfa?error=passkeyFailed` : `${ORIGIN}/api/auth/signin?error=passkeyFailed`)
    }
    expect(await session(ctx.config, jar)).toBeNull()
    expect(secondFactorFailures(ctx.audits).map((event) => [event.reason, event.userId])).toEqual(Array.from({ length: 5 }, () => ["wrongUser", "user-ada"]))
    const late = await call(ctx.config, jar, "/api/auth/webauthn-options/passkey?action=mfa", { headers: { accept: "application/json" } })
    expect(late.status).toBe(401)
  })

  it("never takes the passkey that was the first factor as the second (a sign-in without user verification that pended)", async () => {
    // Every user owes a second factor once her passkeys are in: then a passkey alone pends too.
    let required = false
    const ctx = setup({ factors: ["passkey"], required: () => required }, { userVerification: "preferred" })
    const device = new SoftAuthenticator(ORIGIN)
    const [first, second] = await enrol(ctx.config, "ada", device, 2)
    required = true
    const jar = new Jar()
    const { options: signIn } = await options(ctx.config, jar, "?action=authenticate")
    const unverified = FLAGS.UP | FLAGS.BE | FLAGS.BS
    expect(location(await post(ctx.config, jar, "authenticate", await device.get(signIn, { flags: unverified }, first))).pathname).toBe("/api/auth/mfa")
    const request = await mfaOptions(ctx.config, jar)
    expect(request.allowCredentials.map((allowed) => allowed.id)).toEqual([b64url(second?.id ?? new Uint8Array())])
    const same = await verify(ctx.config, jar, await device.get(request, { flags: unverified }, first), { accept: "application/json" })
    expect([same.status, await same.json()]).toEqual([400, { error: "passkeyFailed" }])
    expect(secondFactorFailures(ctx.audits).at(-1)).toMatchObject({ reason: "invalidCredentials", userId: "user-ada" })
    expect(ctx.errors.at(-1)).toMatch(/first factor/)
    expect(await session(ctx.config, jar)).toBeNull()
    const other = await verify(ctx.config, jar, await device.get(await mfaOptions(ctx.config, jar), { flags: unverified }, second))
    expect(location(other).href).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 2, methods: ["hwk", "mfa"] })
  })

  it("WebAuthn §13.4.3: a captured assertion replayed on a later pending sign-in is refused (replayed)", async () => {
    const ctx = setup()
    const device = new SoftAuthenticator(ORIGIN, false)
    await enrol(ctx.config, "ada", device, 1)
    const jar = await pend(ctx.config)
    const captured = await device.get(await mfaOptions(ctx.config, jar))
    const challengeCookies = new Map([...jar.cookies].filter(([name]) => name.endsWith("authjs.challenge")))
    expect(location(await verify(ctx.config, jar, captured)).href).toBe(`${ORIGIN}/dashboard`)
    // The same browser signs in again later; the capture is posted with its challenge cookie.
    const later = await pend(ctx.config, "ada", jar)
    for (const [name, value] of challengeCookies) later.cookies.set(name, value)
    expect(location(await verify(ctx.config, later, captured)).href).toBe(`${ORIGIN}/api/auth/mfa?error=passkeyFailed`)
    expect(secondFactorFailures(ctx.audits).at(-1)).toMatchObject({ reason: "replayed", userId: "user-ada" })
    expect(ctx.errors.at(-1)).toMatch(/another sign-in/)
    // The later sign-in still waits for its own second factor.
    expect(await (await call(ctx.config, later, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["passkey"] })
  })

  it("refuses an unknown credential and a malformed one without a 500; a second-factor challenge cannot sign in at /callback/passkey", async () => {
    const ctx = setup()
    const device = new SoftAuthenticator(ORIGIN)
    await enrol(ctx.config, "ada", device, 1)
    const jar = await pend(ctx.config)
    const stranger = new SoftAuthenticator(ORIGIN)
    await stranger.register({ challenge: "x", rp: {}, user: { id: "someone" } }).then(({ passkey }) => stranger.passkeys.push(passkey))
    expect(location(await verify(ctx.config, jar, await stranger.get(await mfaOptions(ctx.config, jar)))).href).toBe(`${ORIGIN}/api/auth/mfa?error=passkeyFailed`)
    expect(secondFactorFailures(ctx.audits).at(-1)).toMatchObject({ reason: "invalidCredentials" })
    const malformed = await call(ctx.config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(ctx.config, jar), factor: "passkey", credential: "{" }, headers: { accept: "application/json" } })
    expect(malformed.status).toBe(400)
    const missing = await call(ctx.config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(ctx.config, jar), factor: "passkey" }, headers: { accept: "application/json" } })
    expect([missing.status, await missing.json()]).toEqual([400, { error: "invalidRequest" }])
    const signIn = await post(ctx.config, jar, "authenticate", await device.get(await mfaOptions(ctx.config, jar)))
    expect(location(signIn).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(ctx.errors.at(-1)).toMatch(/second factor/)
    expect(await session(ctx.config, jar)).toBeNull()
  })

  it("serves the challenge page with the passkey button, its one script pinned by hash in the policy", async () => {
    const ctx = setup()
    await enrol(ctx.config, "ada", new SoftAuthenticator(ORIGIN), 1)
    const jar = await pend(ctx.config)
    const response = await call(ctx.config, jar, "/api/auth/mfa")
    const page = await response.text()
    const script = /<script src="([^"]+)" integrity="([^"]+)"/.exec(page)
    expect(script?.[1]).toBe("/api/auth/webauthn-script/passkey")
    expect(page).toMatch(/<form [^>]*data-mfa-passkey data-passkey-provider="passkey" data-base-path="\/api\/auth">/)
    const csp = response.headers.get("content-security-policy") ?? ""
    expect(csp).toContain(`script-src 'self' '${script?.[2] ?? ""}'; connect-src 'self';`)
    expect(csp).not.toMatch(/unsafe-inline'[^;]*script|unsafe-eval/)
  })

  it("answers the options 401 without a pending sign-in, and refuses them when mfa.factors leaves passkeys out", async () => {
    const ctx = setup()
    const jar = new Jar()
    await csrfToken(ctx.config, jar)
    const none = await call(ctx.config, jar, "/api/auth/webauthn-options/passkey?action=mfa", { headers: { accept: "application/json" } })
    expect([none.status, await none.json()]).toEqual([401, { error: "SessionRequired", url: `${ORIGIN}/api/auth/signin` }])
    const totpOnly = setup({ factors: ["totp"] })
    const refused = await call(totpOnly.config, jar, "/api/auth/webauthn-options/passkey?action=mfa", { headers: { accept: "application/json" } })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.status).toBeLessThan(500)
  })
})

describe("enrolling a passkey as the second factor at /mfa/setup under mfa.required", () => {
  const REQUIRED: MfaOptions = { factors: ["passkey"], required: true }

  async function registrationOptions(config: AuthConfig, jar: Jar): Promise<Response> {
    return call(config, jar, "/api/auth/mfa/passkey/options", { form: { csrfToken: await csrfToken(config, jar) }, headers: { accept: "application/json" } })
  }

  async function creationOptions(config: AuthConfig, jar: Jar) {
    const response = await registrationOptions(config, jar)
    expect(response.status).toBe(200)
    return ((await response.json()) as { options: { challenge: string; rp: { id?: string }; user: { id: string; name: string }; excludeCredentials: { id: string }[]; authenticatorSelection?: { userVerification?: string } } }).options
  }

  async function register(config: AuthConfig, jar: Jar, credential: unknown): Promise<Response> {
    return call(config, jar, "/api/auth/mfa/passkey/register", { form: { csrfToken: await csrfToken(config, jar), credential: JSON.stringify(credential) } })
  }

  async function pendingToSetup(config: AuthConfig, username = "ada", jar = new Jar()): Promise<Jar> {
    const { response } = await passwordSignIn(config, username, jar)
    expect(location(response).pathname).toBe("/api/auth/mfa")
    expect(location(await call(config, jar, "/api/auth/mfa")).pathname).toBe("/api/auth/mfa/setup")
    return jar
  }

  it("V6.3.3 / WebAuthn §7.1: a password user with no factor is sent to /mfa/setup, which offers only a passkey; registering one completes the sign-in at level 2 (pwd, hwk, mfa)", async () => {
    const ctx = setup(REQUIRED)
    const jar = await pendingToSetup(ctx.config)
    const page = await (await call(ctx.config, jar, "/api/auth/mfa/setup")).text()
    expect(page).toContain("Create a passkey")
    expect(page).toContain('action="http://localhost:3000/api/auth/mfa/passkey/register"')
    expect(page).not.toContain("/mfa/totp/setup")
    expect(await (await call(ctx.config, jar, "/api/auth/mfa/setup", { headers: { accept: "application/json" } })).json()).toEqual({ enrolled: false, required: true, factors: ["passkey"] })
    const creation = await creationOptions(ctx.config, jar)
    expect(creation.excludeCredentials).toEqual([])
    expect(creation.user.name).toBe("ada@example.com")
    const device = new SoftAuthenticator(ORIGIN)
    const response = await register(ctx.config, jar, await device.create(creation))
    expect(location(response).href).toBe(`${ORIGIN}/dashboard`)
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 2, methods: ["pwd", "hwk", "mfa"] })
    expect((await ctx.config.adapter?.listAuthenticatorsByUserId?.("user-ada"))?.map((passkey) => passkey.credentialID)).toEqual([b64url(device.passkeys[0]?.id ?? new Uint8Array())])
    expect(ctx.audits.slice(-3).map((event) => [event.type, event.outcome, event.methods])).toEqual([
      ["signIn", "pending", ["pwd"]],
      ["mfaEnrol", "success", ["hwk"]],
      ["signIn", "success", ["pwd", "hwk", "mfa"]],
    ])
    // The next sign-in owes that passkey, and the set-up is no longer open to the pending user.
    const next = await pend(ctx.config)
    expect(await (await call(ctx.config, next, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["passkey"] })
    expect((await registrationOptions(ctx.config, next)).status).toBe(401)
  })

  it("excludes the passkey that was the first factor (WebAuthn §5.4 excludeCredentials), and a new one then completes that sign-in", async () => {
    const ctx = setup(REQUIRED, { userVerification: "preferred" })
    const device = new SoftAuthenticator(ORIGIN)
    const first = await device.register({ challenge: "x", rp: {}, user: { id: b64url(crypto.getRandomValues(new Uint8Array(16))) } })
    device.passkeys.push(first.passkey)
    const { credentialID, publicKey } = await soft(first.json)
    await ctx.config.adapter?.createAuthenticator?.({ credentialID, userId: "user-ada", providerAccountId: first.passkey.userHandle, credentialPublicKey: publicKey, counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal" })
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    expect(location(await post(ctx.config, jar, "authenticate", await device.get(request, { flags: FLAGS.UP }))).pathname).toBe("/api/auth/mfa")
    expect(location(await call(ctx.config, jar, "/api/auth/mfa")).pathname).toBe("/api/auth/mfa/setup")
    const creation = await creationOptions(ctx.config, jar)
    expect(creation.excludeCredentials.map((excluded) => excluded.id)).toEqual([credentialID])
    expect(creation.user.id).toBe(first.passkey.userHandle)
    expect(location(await register(ctx.config, jar, await device.create(creation))).href).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.assurance).toMatchObject({ level: 2, methods: ["hwk", "mfa"] })
  })

  it("V6.3.3: refuses another pending sign-in's registration challenge (replayed), and a registration challenge used once (replayed)", async () => {
    const ctx = setup(REQUIRED)
    const jar = await pendingToSetup(ctx.config, "ada")
    const adas = await creationOptions(ctx.config, jar)
    // Bob signs in in the same browser: his pending sign-in replaces Ada's.
    await pendingToSetup(ctx.config, "bob", jar)
    const device = new SoftAuthenticator(ORIGIN)
    const stolen = await register(ctx.config, jar, await device.create(adas))
    expect(location(stolen).searchParams.get("error")).toBe("passkeyFailed")
    expect(await session(ctx.config, jar)).toBeNull()
    expect(ctx.audits.at(-1)).toMatchObject({ type: "mfaEnrol", outcome: "failure", reason: "replayed", userId: "user-bob" })
    expect(await ctx.config.adapter?.listAuthenticatorsByUserId?.("user-ada")).toEqual([])
    expect(await ctx.config.adapter?.listAuthenticatorsByUserId?.("user-bob")).toEqual([])

    // Bob's own challenge, spent by a registration that does not verify, cannot be used again.
    const bobs = await creationOptions(ctx.config, jar)
    const broken = await register(ctx.config, jar, await device.create(bobs, { rpId: "evil.example" }))
    expect(location(broken).searchParams.get("error")).toBe("passkeyFailed")
    const replayed = await register(ctx.config, jar, await device.create(bobs))
    expect(location(replayed).searchParams.get("error")).toBe("passkeyFailed")
    expect(ctx.audits.at(-1)).toMatchObject({ type: "mfaEnrol", outcome: "failure", reason: "replayed" })
    expect(await session(ctx.config, jar)).toBeNull()
    // Nor does the challenge of a pending sign-in's registration sign anyone in at the passkey callback.
    const callback = await post(ctx.config, jar, "register", await device.create(await creationOptions(ctx.config, jar)))
    expect(location(callback).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(await session(ctx.config, jar)).toBeNull()
  })

  it("V6.3.3: a pending user who has a factor already cannot enrol a new one in its place (a stolen password is not enough)", async () => {
    const ctx = setup({ factors: ["passkey", "totp"], required: true })
    const device = new SoftAuthenticator(ORIGIN)
    const creation = { challenge: "x", rp: {}, user: { id: b64url(crypto.getRandomValues(new Uint8Array(16))) } }
    const own = await device.register(creation)
    const { credentialID, publicKey } = await soft(own.json)
    await ctx.config.adapter?.createAuthenticator?.({ credentialID, userId: "user-ada", providerAccountId: own.passkey.userHandle, credentialPublicKey: publicKey, counter: 0, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal" })
    const jar = await pend(ctx.config)
    expect((await registrationOptions(ctx.config, jar)).status).toBe(401)
    const totp = await call(ctx.config, jar, "/api/auth/mfa/totp/setup", { form: { csrfToken: await csrfToken(ctx.config, jar) }, headers: { accept: "application/json" } })
    expect(totp.status).toBe(401)
    expect(await session(ctx.config, jar)).toBeNull()
  })

  it("V6.3.3: a pending user who can get an email code cannot enrol an authenticator app in its place", async () => {
    const ctx = setup({ factors: ["email", "totp"], required: true })
    const config: AuthConfig = { ...ctx.config, mail: { send: () => undefined } }
    await config.adapter?.updateUser?.({ id: "user-ada", emailVerified: new Date() })
    const jar = await pend(config)
    expect((await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()) as unknown).toEqual({ factors: ["email"] })
    const totp = await call(config, jar, "/api/auth/mfa/totp/setup", { form: { csrfToken: await csrfToken(config, jar) }, headers: { accept: "application/json" } })
    expect(totp.status).toBe(401)
    expect(await session(config, jar)).toBeNull()
  })

  it("a signed-in user's passkey is added where it always was: the pending-only routes refuse a session", async () => {
    const ctx = setup({ factors: ["passkey"] })
    const { jar } = await passwordSignIn(ctx.config, "ada")
    expect(await session(ctx.config, jar)).not.toBeNull()
    const response = await registrationOptions(ctx.config, jar)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: "PendingSignInOnly" })
  })

  it("says in plain words what to do when no listed factor can be set up here (email codes only)", async () => {
    const ctx = setup({ factors: ["email"], required: true })
    const config: AuthConfig = { ...ctx.config, mail: { send: () => undefined } }
    // Ada's address is not confirmed: no code can be mailed to her.
    const { jar } = await passwordSignIn(config, "ada")
    expect(location(await call(config, jar, "/api/auth/mfa")).pathname).toBe("/api/auth/mfa/setup")
    const page = await (await call(config, jar, "/api/auth/mfa/setup")).text()
    expect(page).toContain("a code we email you, and it needs an email address you have confirmed")
    expect(page).toContain("cannot be set up on this page")
    expect(page).not.toContain("<form")
  })
})

/** What the store keeps of a soft passkey registered outside a ceremony: its id and COSE public key. */
async function soft(json: Record<string, unknown>): Promise<{ credentialID: string; publicKey: string }> {
  const { decodeAttestationObject, parseAuthenticatorData } = await import("@simplewebauthn/server/helpers")
  const attestation = decodeAttestationObject(Buffer.from((json.response as { attestationObject: string }).attestationObject, "base64url"))
  const data = parseAuthenticatorData(attestation.get("authData"))
  return { credentialID: String(json.id), publicKey: b64url(data.credentialPublicKey ?? new Uint8Array()) }
}
