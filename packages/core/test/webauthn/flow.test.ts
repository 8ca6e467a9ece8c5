/**
 * Passkeys end to end through `Auth()`, with a software authenticator: sign-up, sign-in, more
 * passkeys, management, and every refusal named for the attack it stops.
 */
import { describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { Jar, ORIGIN, call, csrfToken, testConfig } from "../helpers.js"
import { FLAGS, SoftAuthenticator, b64url } from "./authenticator.js"
import { expectRefused, options, passkeyProvider, post, session, setup } from "./harness.js"
import { scaled } from "@portcullis/test-time"

/** A user signed up with a passkey, and signed out again. */
async function signedUp(ctx = setup(), email = "ada@example.com") {
  const device = new SoftAuthenticator(ORIGIN)
  const jar = new Jar()
  const { options: creation } = await options(ctx.config, jar, `?action=register&email=${encodeURIComponent(email)}`)
  const response = await post(ctx.config, jar, "register", await device.create(creation))
  expect(response.status).toBe(302)
  const user = (await session(ctx.config, jar))?.user
  return { ...ctx, device, user, signedInJar: jar }
}

async function signInResponse(ctx: Awaited<ReturnType<typeof signedUp>>, bend: Parameters<SoftAuthenticator["get"]>[1] = {}, jar = new Jar()) {
  const { options: request } = await options(ctx.config, jar, "?action=authenticate")
  return { jar, request, response: await post(ctx.config, jar, "authenticate", await ctx.device.get(request, bend)) }
}

describe("passkey sign-up and sign-in", () => {
  it("signs up a new user with a passkey, whose email is not verified", async () => {
    const ctx = await signedUp()
    expect(ctx.user?.email).toBe("ada@example.com")
    const stored = await ctx.adapter.getUserByEmail("ada@example.com")
    expect(stored?.emailVerified).toBeNull()
    const [passkey] = await ctx.adapter.listAuthenticatorsByUserId(stored?.id ?? "")
    expect(passkey).toMatchObject({ counter: 1, credentialBackedUp: true, credentialDeviceType: "multiDevice", transports: "internal,hybrid" })
  })

  it("signs in with the passkey and sends the browser to its callbackUrl", async () => {
    const ctx = await signedUp()
    const { jar, request, response } = await signInResponse(ctx)
    expect(request.allowCredentials).toEqual([])
    expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, jar))?.user?.id).toBe(ctx.user?.id)
  })

  it("adds a second passkey to the signed-in user, and lists, renames and deletes them", async () => {
    const ctx = await signedUp()
    const jar = ctx.signedInJar
    const { action, options: creation } = await options(ctx.config, jar)
    expect(action).toBe("register")
    expect(creation.excludeCredentials).toHaveLength(1)
    const response = await post(ctx.config, jar, "register", await ctx.device.create(creation))
    expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
    const listed = (await (await call(ctx.config, jar, "/api/auth/webauthn-credentials/passkey")).json()) as { passkeys: { id: string; name: string; createdAt: string }[]; userHandle: string }
    expect(listed.passkeys).toHaveLength(2)
    expect(listed.passkeys[0]?.name).toBe("Passkey")
    expect(listed.userHandle).toBe(creation.user.id)
    const [first, second] = listed.passkeys.map((passkey) => passkey.id)
    const renamed = await call(ctx.config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "rename", credentialId: first ?? "", name: "Laptop", csrfToken: await csrfToken(ctx.config, jar) } })
    expect(((await renamed.json()) as { passkey: { name: string } }).passkey.name).toBe("Laptop")
    const deleted = await call(ctx.config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "delete", credentialId: second ?? "", csrfToken: await csrfToken(ctx.config, jar) } })
    expect(deleted.status).toBe(200)
    const after = (await (await call(ctx.config, jar, "/api/auth/webauthn-credentials/passkey")).json()) as { passkeys: { id: string; name: string }[] }
    expect(after.passkeys.map((passkey) => [passkey.id, passkey.name])).toEqual([[first, "Laptop"]])
    // The deleted passkey no longer signs in.
    const refused = await signInResponse(ctx)
    await expectRefused(refused.response, ctx.config, refused.jar)
  })

  it("gives the session its assurance: level 2 with user verification, level 1 without (WebAuthn §6.2.3, RFC 8176 hwk/user), and adding a passkey keeps the session's", async () => {
    const ctx = await signedUp(setup({}, passkeyProvider({ userVerification: "preferred" })))
    const signedUpAs = (await session(ctx.config, ctx.signedInJar))?.assurance
    expect(signedUpAs).toMatchObject({ level: 2, methods: ["hwk", "user"] })
    const verified = await signInResponse(ctx)
    expect((await session(ctx.config, verified.jar))?.assurance).toMatchObject({ level: 2, methods: ["hwk", "user"] })
    const unverified = await signInResponse(ctx, { flags: FLAGS.UP | FLAGS.BE | FLAGS.BS })
    expect(unverified.response.headers.get("location")).toBe(`${ORIGIN}/account`)
    expect((await session(ctx.config, unverified.jar))?.assurance).toMatchObject({ level: 1, methods: ["hwk"] })
    // A new passkey proves nobody: the session that added it goes on with its own assurance.
    const before = (await session(ctx.config, unverified.jar))?.assurance
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 })
    try {
      const { options: creation } = await options(ctx.config, unverified.jar)
      await post(ctx.config, unverified.jar, "register", await ctx.device.create(creation))
      expect((await session(ctx.config, unverified.jar))?.assurance).toEqual(before)
    } finally {
      vi.useRealTimers()
    }
  })

  it("accepts ES256 signatures with short components (the 1 in 128 the old SimpleWebAuthn refused)", async () => {
    const ctx = await signedUp()
    let signIns = 0
    while (ctx.device.shortSignatures < 2 && signIns < 2000) {
      const { response } = await signInResponse(ctx)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
      signIns += 1
    }
    expect(ctx.device.shortSignatures).toBe(2)
  }, scaled(60_000))

  it("accepts authenticators that do not count (counter always 0)", async () => {
    const ctx = setup()
    const device = new SoftAuthenticator(ORIGIN, false)
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=zero@example.com")
    await post(ctx.config, jar, "register", await device.create(creation))
    for (let i = 0; i < 2; i++) {
      const next = new Jar()
      const { options: request } = await options(ctx.config, next, "?action=authenticate")
      expect((await post(ctx.config, next, "authenticate", await device.get(request))).headers.get("location")).toBe(`${ORIGIN}/account`)
    }
  })

  it("serves the default page with the passkey control and only its same-origin script", async () => {
    const ctx = setup()
    const response = await call(ctx.config, new Jar(), "/api/auth/signin?callbackUrl=%2Faccount")
    const page = await response.text()
    const csp = response.headers.get("content-security-policy") ?? ""
    const script = /<script src="([^"]+)" integrity="([^"]+)"/.exec(page)
    expect(script?.[1]).toBe("/api/auth/webauthn-script/passkey")
    expect(csp).toContain(`script-src 'self' '${script?.[2] ?? ""}';`)
    expect(csp).not.toMatch(/https:\/\/|unsafe-inline'[^;]*script|unsafe-eval/)
    expect(page).toContain('data-callback-url="http://localhost:3000/account"')
    expect(page).toContain('autocomplete="username webauthn"')
    // The email field says what it is for: creating a passkey, not signing in with one.
    expect(page).toContain('aria-describedby="passkey-email-hint" data-passkey-email><p class="muted hint" id="passkey-email-hint">Only needed to create a passkey.')
    const served = await call(ctx.config, new Jar(), script?.[1] ?? "")
    const body = new Uint8Array(await served.arrayBuffer())
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", body)).toString("base64")
    expect([served.headers.get("content-type"), `sha256-${digest}`]).toEqual(["text/javascript; charset=utf-8", script?.[2]])
  })

  it("keeps the default page scriptless when no provider needs a script", async () => {
    const response = await call(testConfig(), new Jar(), "/api/auth/signin")
    expect(response.headers.get("content-security-policy")).not.toContain("script-src")
  })
})

describe("the unverified email of a passkey sign-up", () => {
  it("is not enough for an email link to that address to sign in as the passkey's user, once the app adds an email provider", async () => {
    const links: string[] = []
    const email = { id: "email", name: "Email", type: "email", from: "no-reply@example.com", sendVerificationRequest: ({ url }: { url: string }) => void links.push(url) }
    // Signed up while the app had no email provider: the address was never confirmed.
    const ctx = await signedUp()
    const later = testConfig({ adapter: ctx.adapter, providers: [passkeyProvider() as never, email as never] })
    const jar = new Jar()
    await call(later, jar, "/api/auth/signin/email", { form: { email: "ada@example.com", csrfToken: await csrfToken(later, jar) } })
    const link = new URL(links[0] ?? "")
    const response = await call(later, jar, "/api/auth/callback/email", {
      form: { token: link.searchParams.get("token") ?? "", email: link.searchParams.get("email") ?? "", csrfToken: await csrfToken(later, jar) },
    })
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await session(later, jar)).toBeNull()
  })
})

describe("the options route reveals nothing to a stranger", () => {
  it("never lists credential ids, and answers the same for a known and an unknown email", async () => {
    const ctx = await signedUp()
    const known = await options(ctx.config, new Jar(), "?action=register&email=ada%40example.com")
    const unknown = await options(ctx.config, new Jar(), "?action=register&email=nobody%40example.com")
    const shape = (answer: typeof known) => ({ ...answer.options, challenge: "", user: { ...answer.options.user, id: "", name: "", displayName: "" } })
    expect(shape(known)).toEqual(shape(unknown))
    expect(known.options.excludeCredentials).toEqual([])
    const signIn = await options(ctx.config, new Jar(), "?action=authenticate&email=ada%40example.com")
    expect(signIn.options.allowCredentials).toEqual([])
  })

  it("asks for user verification with Passkey(), and attestation none", async () => {
    const ctx = setup()
    const { options: creation } = await options(ctx.config, new Jar(), "?action=register&email=a%40example.com")
    expect(creation).toMatchObject({ attestation: "none", authenticatorSelection: { userVerification: "required", residentKey: "required" } })
  })

  it("refuses an options request from a browser without a CSRF cookie", async () => {
    const ctx = setup()
    const response = await call(ctx.config, new Jar(), "/api/auth/webauthn-options/passkey")
    expect(response.status).toBe(403)
  })
})

describe("refusals", () => {
  it("refuses a response signed on another origin", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { origin: "https://evil.example" })
    await expectRefused(response, ctx.config, jar, /origin/)
  })

  it("refuses a response for another relying party", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { rpId: "evil.example" })
    await expectRefused(response, ctx.config, jar, /RP ID hash/)
  })

  it("refuses a ceremony run in a cross-origin frame", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { crossOrigin: true, topOrigin: "https://evil.example" })
    await expectRefused(response, ctx.config, jar, /cross-origin frame/)
  })

  it("refuses a replayed challenge", async () => {
    const ctx = await signedUp()
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const data = await ctx.device.get(request)
    expect((await post(ctx.config, jar, "authenticate", data)).headers.get("location")).toBe(`${ORIGIN}/account`)
    const replayJar = new Jar()
    for (const [name, value] of jar.cookies) if (name.includes("csrf")) replayJar.cookies.set(name, value)
    await expectRefused(await post(ctx.config, replayJar, "authenticate", data), ctx.config, replayJar, /used already/)
  })

  it("refuses a challenge issued to another browser", async () => {
    const ctx = await signedUp()
    const { options: request } = await options(ctx.config, new Jar(), "?action=authenticate")
    const victim = new Jar()
    await csrfToken(ctx.config, victim)
    await expectRefused(await post(ctx.config, victim, "authenticate", await ctx.device.get(request)), ctx.config, victim, /another browser/)
  })

  it("refuses a challenge this server never issued", async () => {
    const ctx = await signedUp()
    const jar = new Jar()
    await csrfToken(ctx.config, jar)
    const forged = b64url(crypto.getRandomValues(new Uint8Array(32)))
    await expectRefused(await post(ctx.config, jar, "authenticate", await ctx.device.get({ challenge: forged })), ctx.config, jar, /did not issue/)
  })

  it("refuses a signature by another key", async () => {
    const ctx = await signedUp()
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]))
    const { jar, response } = await signInResponse(ctx, { signWith: other.privateKey })
    await expectRefused(response, ctx.config, jar, /sign-in did not verify/)
  })

  it("refuses an unknown credential, and says so with code=unknown_credential for the Signal API", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { credentialId: b64url(crypto.getRandomValues(new Uint8Array(32))) })
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("code")).toBe("unknown_credential")
    await expectRefused(response, ctx.config, jar, /No passkey has this credential id/)
  })

  it("shows one message on the sign-in page after an unknown passkey: the passkey control's own, not the generic error beside it", async () => {
    const ctx = await signedUp()
    const { response } = await signInResponse(ctx, { credentialId: b64url(crypto.getRandomValues(new Uint8Array(32))) })
    const page = await (await call(ctx.config, new Jar(), new URL(response.headers.get("location") ?? "").href)).text()
    const alerts = [...page.matchAll(/<p class="error" role="alert"[^>]*>([^<]*)<\/p>/g)].map((match) => match[1])
    expect(alerts).toEqual(["This passkey is not registered here, so your browser was asked to stop offering it. Sign in another way, or create a new passkey."])
    // Any other passkey refusal keeps the page's own message, and the control's box stays empty and hidden.
    const other = await (await call(ctx.config, new Jar(), "/api/auth/signin?error=WebAuthnVerificationError")).text()
    expect([...other.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((match) => match[1])).toEqual(["That passkey did not work here. Please try again, or choose another way to sign in.", ""])
  })

  it("gives no code= for a refusal that is not an unknown credential", async () => {
    const ctx = await signedUp()
    const { response } = await signInResponse(ctx, { userHandle: b64url(crypto.getRandomValues(new Uint8Array(32))) })
    expect(new URL(response.headers.get("location") ?? "").searchParams.has("code")).toBe(false)
  })

  it("refuses another user's credential id presented with this key", async () => {
    const ctx = await signedUp()
    const mallory = new SoftAuthenticator(ORIGIN)
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=mallory%40example.com")
    await post(ctx.config, jar, "register", await mallory.create(creation))
    const victimId = (await ctx.adapter.listAuthenticatorsByUserId(ctx.user?.id ?? ""))[0]?.credentialID ?? ""
    const attempt = new Jar()
    const { options: request } = await options(ctx.config, attempt, "?action=authenticate")
    await expectRefused(await post(ctx.config, attempt, "authenticate", await mallory.get(request, { credentialId: victimId })), ctx.config, attempt, /user handle/)
  })

  it("refuses a user handle that is not the one the passkey was registered under", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { userHandle: b64url(crypto.getRandomValues(new Uint8Array(32))) })
    await expectRefused(response, ctx.config, jar, /user handle/)
  })

  it("refuses a signature counter that goes backwards (a cloned authenticator)", async () => {
    const ctx = await signedUp()
    await signInResponse(ctx)
    const { jar, response } = await signInResponse(ctx, { counter: 1 })
    await expectRefused(response, ctx.config, jar, /counter/)
  })

  it("refuses a sign-in without user verification", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { flags: FLAGS.UP | FLAGS.BE | FLAGS.BS })
    await expectRefused(response, ctx.config, jar, /User verification/)
  })

  it("refuses tampered authenticator data", async () => {
    const ctx = await signedUp()
    const { jar, response } = await signInResponse(ctx, { tamper: (data) => Uint8Array.from(data, (byte, i) => (i === 36 ? byte ^ 1 : byte)) })
    await expectRefused(response, ctx.config, jar, /sign-in did not verify/)
  })

  it("refuses malformed data with a clear error, not a server error", async () => {
    const ctx = await signedUp()
    for (const data of ["{", "[]", JSON.stringify({ id: "x", rawId: "y", type: "public-key", response: {} }), JSON.stringify({ id: "abc", rawId: "abc", type: "public-key", response: { clientDataJSON: "%%%" } })]) {
      const jar = new Jar()
      await expectRefused(await post(ctx.config, jar, "authenticate", data), ctx.config, jar)
    }
  })

  it("refuses oversized data without logging it", async () => {
    const ctx = await signedUp()
    const jar = new Jar()
    const huge = "A".repeat(20_000)
    await expectRefused(await post(ctx.config, jar, "authenticate", JSON.stringify({ id: huge, rawId: huge, type: "public-key", response: {} })), ctx.config, jar, /too large/)
    expect(ctx.errors.join("\n")).not.toContain("AAAAAAAAAAAAAAAAAAAA")
    const tooBig = await call(ctx.config, jar, "/api/auth/callback/passkey", { form: { data: "A".repeat(70_000), csrfToken: await csrfToken(ctx.config, jar) } })
    expect(tooBig.status).toBeLessThan(500)
  })

  it("refuses a callback without the CSRF token", async () => {
    const ctx = await signedUp()
    const jar = new Jar()
    const { options: request } = await options(ctx.config, jar, "?action=authenticate")
    const response = await call(ctx.config, jar, "/api/auth/callback/passkey", { form: { action: "authenticate", data: JSON.stringify(await ctx.device.get(request)) } })
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("MissingCSRF")
    expect(await session(ctx.config, jar)).toBeNull()
  })

  it("refuses a passkey registration for someone else's email (without an email provider, which tells the email has an account)", async () => {
    const ctx = await signedUp()
    const mallory = new SoftAuthenticator(ORIGIN)
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=ada%40example.com")
    await expectRefused(await post(ctx.config, jar, "register", await mallory.create(creation)), ctx.config, jar, /has an account/)
    expect(await ctx.adapter.listAuthenticatorsByUserId(ctx.user?.id ?? "")).toHaveLength(1)
  })

  it("refuses registering a credential id that belongs to someone else", async () => {
    const ctx = await signedUp()
    const victimId = (await ctx.adapter.listAuthenticatorsByUserId(ctx.user?.id ?? ""))[0]?.credentialID ?? ""
    const mallory = new SoftAuthenticator(ORIGIN)
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=mallory%40example.com")
    await expectRefused(await post(ctx.config, jar, "register", await mallory.create(creation, { credentialId: victimId })), ctx.config, jar, /registered already/)
    expect(await ctx.adapter.getUserByEmail("mallory@example.com")).toBeNull()
  })

  it("refuses a registration challenge used to sign in, and the other way round", async () => {
    const ctx = await signedUp()
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=eve%40example.com")
    await expectRefused(await post(ctx.config, jar, "authenticate", await ctx.device.get({ challenge: creation.challenge })), ctx.config, jar, /issued to register/)
  })

  it("refuses registration without user verification", async () => {
    const ctx = setup()
    const jar = new Jar()
    const { options: creation } = await options(ctx.config, jar, "?action=register&email=eve%40example.com")
    const data = await new SoftAuthenticator(ORIGIN).create(creation, { flags: FLAGS.UP | FLAGS.AT })
    await expectRefused(await post(ctx.config, jar, "register", data), ctx.config, jar, /User verification/)
  })

  it("lets nobody but the owner manage a passkey", async () => {
    const ctx = await signedUp()
    const victimId = (await ctx.adapter.listAuthenticatorsByUserId(ctx.user?.id ?? ""))[0]?.credentialID ?? ""
    const other = await signedUp(ctx, "mallory@example.com")
    const jar = other.signedInJar
    const response = await call(ctx.config, jar, "/api/auth/webauthn-credentials/passkey", { form: { action: "delete", credentialId: victimId, csrfToken: await csrfToken(ctx.config, jar) } })
    expect(response.status).toBe(400)
    expect(await ctx.adapter.getAuthenticator(victimId)).not.toBeNull()
    expect((await call(ctx.config, new Jar(), "/api/auth/webauthn-credentials/passkey")).status).toBe(403)
  })

  it("refuses to add a passkey when the session changed since the options were issued", async () => {
    const ctx = await signedUp()
    const jar = ctx.signedInJar
    const { options: creation } = await options(ctx.config, jar)
    await call(ctx.config, jar, "/api/auth/signout", { form: { csrfToken: await csrfToken(ctx.config, jar) } })
    await expectRefused(await post(ctx.config, jar, "register", await ctx.device.create(creation)), ctx.config, jar, /user who started it/)
  })
})

describe("the configuration", () => {
  it("is refused when it is read, without an adapter, naming the provider and the option", async () => {
    for (const provider of [passkeyProvider(), passkeyProvider({ id: "webauthn", name: "WebAuthn", userVerification: "preferred" })]) {
      const errors: string[] = []
      const config = testConfig({ providers: [provider as never], logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined } })
      // Any route, not only the passkey ones: the configuration is unusable as a whole.
      const response = await Auth(new Request(`${ORIGIN}/api/auth/providers`), config)
      expect(response.status).toBe(503)
      expect(errors).toEqual([`Configuration: Provider "${provider.id}" needs an \`adapter\` to store its passkeys and users.`])
    }
  })
})

describe("Auth() itself", () => {
  it("never answers 5xx to garbage on the passkey routes", async () => {
    const ctx = setup()
    for (const path of ["/api/auth/webauthn-options/passkey?action=nonsense", "/api/auth/webauthn-options/passkey?action=register&email=not-an-email", "/api/auth/callback/passkey"]) {
      const jar = new Jar()
      await csrfToken(ctx.config, jar)
      const response = await Auth(new Request(new URL(path, ORIGIN), { headers: { cookie: jar.header() } }), ctx.config)
      expect(response.status, path).toBeLessThan(500)
    }
  })
})

describe("the sign-in page's script", () => {
  it("is the bundle of its source (run `node scripts/build-webauthn-script.mjs` after changing it)", async () => {
    // @ts-expect-error -- a plain .mjs build script, without declarations
    const { pageScriptSource } = (await import("../../scripts/build-webauthn-script.mjs")) as { pageScriptSource: () => Promise<string> }
    const { readFile } = await import("node:fs/promises")
    expect(await readFile(new URL("../../src/webauthn/page-script.generated.ts", import.meta.url), "utf8")).toBe(await pageScriptSource())
  })
})

describe("Auth.js's contract", () => {
  it("accepts experimental.enableWebAuthn, and does not need it", async () => {
    for (const experimental of [{ enableWebAuthn: true }, undefined]) {
      const ctx = setup(experimental === undefined ? {} : { experimental })
      expect((await call(ctx.config, new Jar(), "/api/auth/providers")).status).toBe(200)
      expect((await options(ctx.config, new Jar(), "?action=authenticate")).action).toBe("authenticate")
    }
  })

  it("takes Auth.js's relayingParty lists, using the first value of each as its default getRelayingParty does", async () => {
    const ctx = setup({}, passkeyProvider({ relayingParty: { id: ["localhost", "example.com"], name: ["Acme", "Other"], origin: [ORIGIN, "https://example.com"] } }))
    const { options: creation } = await options(ctx.config, new Jar(), "?action=register&email=ada%40example.com")
    expect(creation.rp).toEqual({ id: "localhost", name: "Acme" })
    const device = new SoftAuthenticator(ORIGIN)
    const jar = new Jar()
    const { options: again } = await options(ctx.config, jar, "?action=register&email=ada%40example.com")
    expect((await post(ctx.config, jar, "register", await device.create(again))).status).toBe(302)
  })

  it("asks Auth.js's getRelayingParty for the relying party of each ceremony (WebAuthn §5.1.3: the rp.id the credential is scoped to)", async () => {
    const seen: string[] = []
    const getRelayingParty = (options: { url: URL }, request: { url: URL }) => {
      seen.push(`${options.url.href} ${request.url.pathname}`)
      return { id: "localhost", name: "Acme by request", origin: ORIGIN }
    }
    const ctx = await signedUp(setup({}, passkeyProvider({ getRelayingParty })))
    expect(seen[0]).toBe(`${ORIGIN}/api/auth /api/auth/webauthn-options/passkey`)
    const { request, response } = await signInResponse(ctx)
    expect(request.rpId).toBe("localhost")
    expect(response.status).toBe(302)
  })

  it("answers a getRelayingParty answer without an origin with the configuration error, naming the option", async () => {
    const ctx = setup({}, passkeyProvider({ getRelayingParty: () => ({ id: "localhost", name: "Acme" }) }))
    const jar = new Jar()
    await csrfToken(ctx.config, jar)
    const response = await call(ctx.config, jar, "/api/auth/webauthn-options/passkey?action=authenticate")
    expect(response.status).toBe(503)
    expect(ctx.errors.join("\n")).toContain("getRelayingParty")
  })

  it("calls an Auth.js-style getUserInfo(options, request) and reads its { user, exists } answer", async () => {
    const getUserInfo = (options: { url: URL }, request?: { query?: Record<string, string> }) =>
      Promise.resolve({ user: { email: request?.query?.email ?? null, name: `from ${options.url.pathname}` }, exists: false })
    const ctx = await signedUp(setup({}, passkeyProvider({ getUserInfo })), "grace@example.com")
    expect(ctx.user).toMatchObject({ email: "grace@example.com", name: "from /api/auth" })
  })

  it("takes Auth.js's formFields attributes, autoComplete and signals, on the default page", async () => {
    const ctx = setup({}, passkeyProvider({ formFields: { email: { label: "Work email", autoComplete: "username webauthn", placeholder: { value: "ada@work.example" }, required: { value: true } } } }))
    const page = await (await call(ctx.config, new Jar(), "/api/auth/signin")).text()
    expect(page).toContain('type="email" autocomplete="username webauthn" placeholder="ada@work.example"')
  })

  it("refuses SimpleWebAuthn functions in simpleWebAuthn at start, naming them: core verifies WebAuthn itself", async () => {
    const ctx = setup({}, passkeyProvider({ simpleWebAuthn: { verifyRegistrationResponse: () => ({ verified: true }) } }))
    expect((await call(ctx.config, new Jar(), "/api/auth/providers")).status).toBe(503)
    expect(ctx.errors.join("\n")).toContain("simpleWebAuthn.verifyRegistrationResponse")
  })

  it("lists the passkey provider with type webauthn", async () => {
    const ctx = setup()
    expect(await (await call(ctx.config, new Jar(), "/api/auth/providers")).json()).toMatchObject({ passkey: { id: "passkey", type: "webauthn" } })
  })
})

describe("bundles", () => {
  it("keep SimpleWebAuthn out of an app that bundles the main client, even without code splitting", async () => {
    const { build } = await import("esbuild")
    const result = await build({ entryPoints: [new URL("../../src/client.ts", import.meta.url).pathname], bundle: true, write: false, format: "esm", platform: "browser", logLevel: "silent" })
    const code = result.outputFiles[0]?.text ?? ""
    expect(code).toContain("webauthn-script")
    expect(code).not.toMatch(/simplewebauthn|navigator\.credentials|startAuthentication/)
  })
})
