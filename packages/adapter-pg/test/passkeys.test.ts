/**
 * Passkeys through `Auth()` on PostgreSQL: sign up, sign in, add, rename and delete, with the
 * registration challenges kept in `verification_token` (single use across instances; a sign-in's
 * is in a cookie, cleared on use) and the passkey's name and dates in the new `authenticators` columns.
 */
import { Auth } from "@portcullis/core"
import type { Adapter } from "@portcullis/core/adapters"
import { FLOW } from "@portcullis/core/providers"
import { webauthn } from "@portcullis/core/webauthn"
import { expect, it } from "vitest"
import { SoftAuthenticator } from "../../core/test/webauthn/authenticator.js"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"

const ORIGIN = "http://localhost:3000"
// Strong, as `openssl rand -base64 32` makes one: core warns of a weak secret.
const SECRET = "3URVtZMZkseYg8hID6LWlNJg5XNyqvur3YjUWTcCncQ="
const pool = useDatabase("passkeys", migrate)

type Config = Parameters<typeof Auth>[1]

/** A browser on the app; `on` sends one request to another server of it (another config). */
function browser(config: Config) {
  const jar = new Map<string, string>()
  const request = async (path: string, form?: Record<string, string>, on = config): Promise<Response> => {
    const headers = new Headers({ cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") })
    if (form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
    const response = await Auth(new Request(new URL(path, ORIGIN), { method: form === undefined ? "GET" : "POST", headers, body: form === undefined ? undefined : new URLSearchParams(form) }), on)
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      if (/max-age=0/i.test(header)) jar.delete(pair.slice(0, eq))
      else jar.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    return response
  }
  const csrf = async (): Promise<string> => ((await (await request("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  return {
    request,
    csrf,
    options: async (query: string) => {
      await csrf()
      return ((await (await request(`/api/auth/webauthn-options/passkey${query}`)).json()) as { options: { challenge: string; rp: { id?: string }; user: { id: string } } }).options
    },
    post: async (path: string, form: Record<string, string>, on = config) => request(path, { ...form, csrfToken: await csrf() }, on),
    email: async () => ((await (await request("/api/auth/session")).json()) as { user?: { email?: string } } | null)?.user?.email ?? null,
  }
}

it("signs up, signs in, adds, renames and deletes passkeys with PostgresAdapter and database sessions", async () => {
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter: PostgresAdapter(pool()),
    session: { strategy: "database" as const },
    logger: { error: () => undefined },
    providers: [{ id: "passkey", name: "Passkey", type: "webauthn" as const, formFields: { email: { label: "Email", required: true } }, [FLOW]: webauthn }],
  }
  const phone = new SoftAuthenticator(ORIGIN)
  const first = browser(config)
  const creation = await first.options("?action=register&email=pg%40example.com")
  const signedUp = await first.post("/api/auth/callback/passkey", { action: "register", data: JSON.stringify(await phone.create(creation)), callbackUrl: "/account" })
  expect(signedUp.headers.get("location")).toBe(`${ORIGIN}/account`)
  expect(await first.email()).toBe("pg@example.com")

  const second = browser(config)
  const request = await second.options("?action=authenticate")
  const data = JSON.stringify(await phone.get(request))
  expect((await second.post("/api/auth/callback/passkey", { action: "authenticate", data })).headers.get("location")).toBe(`${ORIGIN}/`)
  expect(await second.email()).toBe("pg@example.com")
  // The callback cleared the sign-in's challenge cookie: the same response does not sign in again.
  const replay = await second.post("/api/auth/callback/passkey", { action: "authenticate", data })
  expect(new URL(replay.headers.get("location") ?? "").searchParams.get("error")).toBe("WebAuthnVerificationError")

  const laptop = new SoftAuthenticator(ORIGIN)
  const added = await second.post("/api/auth/callback/passkey", { action: "register", data: JSON.stringify(await laptop.create(await second.options(""))) })
  expect(added.status).toBe(302)
  const list = async () => ((await (await second.request("/api/auth/webauthn-credentials/passkey")).json()) as { passkeys: { id: string; name: string; lastUsedAt: string | null }[] }).passkeys
  const [phoneKey, laptopKey] = await list()
  expect([phoneKey?.lastUsedAt, laptopKey?.lastUsedAt].every((date) => typeof date === "string")).toBe(true)
  await second.post("/api/auth/webauthn-credentials/passkey", { action: "rename", credentialId: phoneKey?.id ?? "", name: "Phone" })
  await second.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: laptopKey?.id ?? "" })
  expect((await list()).map((passkey) => passkey.name)).toEqual(["Phone"])
  const { rows } = await pool().query(`SELECT name FROM authenticators`)
  expect(rows).toEqual([{ name: "Phone" }])
})

it("keeps a user's last passkey on PostgreSQL, also when two servers delete the last two at once", async () => {
  // Each server's delete waits until both requests have checked that another passkey is left.
  let arrived = 0
  let open: () => void = () => undefined
  const bothChecked = new Promise<void>((resolve) => (open = resolve))
  const server = (): Config => {
    const adapter = PostgresAdapter(pool())
    const racing: Adapter = {
      ...adapter,
      async deleteAuthenticator(credentialID) {
        if (++arrived === 2) open()
        await bothChecked
        return adapter.deleteAuthenticator(credentialID)
      },
    }
    const config = {
      secret: SECRET,
      trustHost: true,
      adapter: racing,
      session: { strategy: "database" as const },
      logger: { error: () => undefined },
      providers: [
        { id: "passkey", name: "Passkey", type: "webauthn" as const, formFields: { email: { label: "Email", required: true } }, [FLOW]: webauthn },
        { id: "acme", name: "Acme", type: "oauth" as const, clientId: "acme", clientSecret: "acme-secret", authorization: "https://acme.example/authorize", token: "https://acme.example/token", userinfo: "https://acme.example/userinfo" },
      ],
    }
    return config
  }
  const [one, two] = [server(), server()]
  const user = browser(one)
  const creation = await user.options("?action=register&email=last%40example.com")
  await user.post("/api/auth/callback/passkey", { action: "register", data: JSON.stringify(await new SoftAuthenticator(ORIGIN).create(creation)) })
  await user.post("/api/auth/callback/passkey", { action: "register", data: JSON.stringify(await new SoftAuthenticator(ORIGIN).create(await user.options(""))) })
  const stored = async () => (await pool().query<{ credentialID: string }>(`SELECT a."credentialID" FROM authenticators a JOIN users u ON u.id = a."userId" WHERE u.email = 'last@example.com'`)).rows.map((row) => row.credentialID)
  const [first = "", second = ""] = await stored()
  expect(second).not.toBe("")

  const answers = await Promise.all([
    user.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: first }, one),
    user.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: second }, two),
  ])
  expect(answers.map((answer) => answer.status)).toContain(409)
  const left = await stored()
  expect(left.length).toBeGreaterThan(0)

  // One passkey left: refused, until an account at a configured OAuth provider stands in.
  const [last = ""] = left.slice(-1)
  for (const kept of left.slice(0, -1)) expect((await user.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: kept })).status).toBe(200)
  const refused = await user.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: last })
  expect(refused.status).toBe(409)
  expect(await refused.json()).toMatchObject({ code: "last_sign_in_method" })
  const { rows } = await pool().query<{ id: string }>(`SELECT id FROM users WHERE email = 'last@example.com'`)
  await PostgresAdapter(pool()).linkAccount({ userId: String(rows[0]?.id), type: "oauth", provider: "acme", providerAccountId: "last-at-acme" })
  expect((await user.post("/api/auth/webauthn-credentials/passkey", { action: "delete", credentialId: last })).status).toBe(200)
  expect(await stored()).toEqual([])
})
