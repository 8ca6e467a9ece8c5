/**
 * A passkey registered through Auth.js's own published `@auth/core` (installed as `authjs-core`,
 * with the SimpleWebAuthn 9 it was built for) signs in through our `Auth()` from the rows Auth.js
 * wrote: its credential id and key in standard base64, its `providerAccountId` equal to the
 * credential id, and no recorded user handle.
 */
import { Auth as AuthjsAuth, type AuthConfig as AuthjsConfig } from "authjs-core"
import AuthjsPasskey from "authjs-core/providers/passkey"
import * as simpleWebAuthn9 from "simplewebauthn-server-v9"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "../../src/types.js"
import { Jar, ORIGIN, call, csrfToken, testConfig } from "../helpers.js"
import { b64url, SoftAuthenticator } from "./authenticator.js"
import { expectRefused, options, passkeyProvider, post, session, type Options } from "./harness.js"

const EMAIL = "ada@example.com"

async function authjsCall(config: AuthjsConfig, jar: Jar, path: string, form?: Record<string, string>): Promise<Response> {
  const headers = new Headers()
  if (jar.cookies.size > 0) headers.set("cookie", jar.header())
  if (form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
  const body = form === undefined ? undefined : new URLSearchParams(form).toString()
  const response = await AuthjsAuth(new Request(new URL(path, ORIGIN), { method: form === undefined ? "GET" : "POST", headers, body }), config)
  jar.store(response)
  return response
}

/** An app on Auth.js with its passkey provider, and one on us over the same store. */
function apps() {
  const adapter = MemoryAdapter()
  const authjs: AuthjsConfig = {
    secret: "an-authjs-secret-that-is-at-least-32-characters",
    trustHost: true,
    basePath: "/api/auth",
    adapter: adapter as unknown as AuthjsConfig["adapter"],
    experimental: { enableWebAuthn: true },
    logger: { warn: () => undefined },
    providers: [AuthjsPasskey({ simpleWebAuthn: simpleWebAuthn9 } as never)],
  }
  const errors: string[] = []
  const ours: AuthConfig = testConfig({
    adapter,
    providers: [passkeyProvider() as never],
    logger: { error: (error) => errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
  })
  return { adapter, authjs, ours, errors }
}

/** Registers a passkey for a new user through Auth.js's own options route and callback. */
async function registerUnderAuthjs(config: AuthjsConfig, authenticator: SoftAuthenticator): Promise<void> {
  const jar = new Jar()
  const { csrfToken: token } = (await (await authjsCall(config, jar, "/api/auth/csrf")).json()) as { csrfToken: string }
  const answer = (await (await authjsCall(config, jar, `/api/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(EMAIL)}`)).json()) as { action: string; options: Options }
  expect(answer.action).toBe("register")
  const data = await authenticator.create(answer.options)
  const response = await authjsCall(config, jar, "/api/auth/callback/passkey", { action: "register", data: JSON.stringify(data), csrfToken: token })
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).not.toContain("error")
}

async function signInWithOurs(config: AuthConfig, authenticator: SoftAuthenticator, passkey = authenticator.passkeys.at(-1)): Promise<{ jar: Jar; response: Response }> {
  const jar = new Jar()
  const { options: request } = await options(config, jar, "?action=authenticate")
  const response = await post(config, jar, "authenticate", await authenticator.get(request, {}, passkey))
  return { jar, response }
}

describe("a passkey registered through Auth.js", () => {
  it("signs in through our Auth() as the user Auth.js created, from the rows as Auth.js wrote them", async () => {
    const { adapter, authjs, ours } = apps()
    const authenticator = new SoftAuthenticator(ORIGIN)
    await registerUnderAuthjs(authjs, authenticator)
    // The facts this rests on: standard base64 ids, providerAccountId = credential id, no handle kept.
    const created = await adapter.getUserByEmail(EMAIL)
    const id = Buffer.from(authenticator.passkeys[0]?.id ?? []).toString("base64")
    const [stored] = await adapter.listAuthenticatorsByUserId(created?.id ?? "")
    expect(stored).toMatchObject({ credentialID: id, providerAccountId: id, userId: created?.id })
    expect(await adapter.getAccount(id, "passkey")).toMatchObject({ type: "webauthn", userId: created?.id })
    expect(JSON.stringify(stored)).not.toContain(authenticator.passkeys[0]?.userHandle)

    const { jar, response } = await signInWithOurs(ours, authenticator)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
    const user = await adapter.getUserByEmail(EMAIL)
    expect(await session(ours, jar)).toMatchObject({ user: { id: user?.id, email: EMAIL } })
    // The counter moved on in the row Auth.js wrote.
    const [row] = await adapter.listAuthenticatorsByUserId(user?.id ?? "")
    expect(row?.counter).toBe(authenticator.passkeys[0]?.counter)
  })

  it("attack: its row does not make a wrong signature pass", async () => {
    const { authjs, ours, errors } = apps()
    const authenticator = new SoftAuthenticator(ORIGIN)
    await registerUnderAuthjs(authjs, authenticator)
    const jar = new Jar()
    const { options: request } = await options(ours, jar, "?action=authenticate")
    const stranger = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])
    const response = await post(ours, jar, "authenticate", await authenticator.get(request, { signWith: stranger.privateKey }))
    await expectRefused(response, ours, jar)
    // Refused for its signature, after its row was found.
    expect(errors.at(-1)).toMatch(/passkey sign-in did not verify/)
  })

  it("lets its user add a passkey under ours, with a handle of its own, and both sign in", async () => {
    const { adapter, authjs, ours } = apps()
    const authenticator = new SoftAuthenticator(ORIGIN)
    await registerUnderAuthjs(authjs, authenticator)
    const { jar } = await signInWithOurs(ours, authenticator)
    const authjsPasskey = authenticator.passkeys[0]
    const { action, options: creation } = await options(ours, jar, "?action=register")
    expect(action).toBe("register")
    // Auth.js's standard base64 id goes out as the base64url WebAuthn options carry.
    expect(creation.excludeCredentials?.map((known) => known.id)).toEqual([b64url(authjsPasskey?.id ?? new Uint8Array())])
    expect(creation.user.id).not.toBe(Buffer.from(authjsPasskey?.id ?? []).toString("base64"))
    const added = await post(ours, jar, "register", await authenticator.create(creation))
    expect(added.status).toBe(302)
    const user = await adapter.getUserByEmail(EMAIL)
    expect(await adapter.listAuthenticatorsByUserId(user?.id ?? "")).toHaveLength(2)
    for (const passkey of authenticator.passkeys) {
      const { jar: fresh, response } = await signInWithOurs(ours, authenticator, passkey)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/account`)
      expect(await session(ours, fresh)).toMatchObject({ user: { id: user?.id } })
    }
    // The list (for the Signal API too) has our handle and base64url ids, never Auth.js's forms.
    const list = (await (await call(ours, jar, "/api/auth/webauthn-credentials/passkey")).json()) as { userHandle: string | null; passkeys: { id: string }[] }
    expect(list.userHandle).toBe(creation.user.id)
    expect(list.passkeys.map((passkey) => passkey.id)).toEqual(authenticator.passkeys.map((passkey) => b64url(passkey.id)))
  })

  it("is renamed and deleted by the id our list gives it", async () => {
    const { adapter, authjs, ours } = apps()
    const authenticator = new SoftAuthenticator(ORIGIN)
    await registerUnderAuthjs(authjs, authenticator)
    const { jar } = await signInWithOurs(ours, authenticator)
    await post(ours, jar, "register", await authenticator.create((await options(ours, jar, "?action=register")).options))
    const id = b64url(authenticator.passkeys[0]?.id ?? new Uint8Array())
    const change = async (form: Record<string, string>) => call(ours, jar, "/api/auth/webauthn-credentials/passkey", { form: { ...form, credentialId: id, csrfToken: await csrfToken(ours, jar) } })
    expect(await (await change({ action: "rename", name: "Old laptop" })).json()).toMatchObject({ passkey: { id, name: "Old laptop" } })
    expect(await (await change({ action: "delete" })).json()).toEqual({ deleted: id })
    const user = await adapter.getUserByEmail(EMAIL)
    expect(await adapter.listAuthenticatorsByUserId(user?.id ?? "")).toHaveLength(1)
  })
})
