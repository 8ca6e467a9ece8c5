/**
 * Whole sign-ins through our `Auth()` with Auth.js's own adapters behind it, as an app moving
 * from Auth.js keeps its store: a real OpenID Provider (`@portcullis/dev-idp`), real PostgreSQL
 * (both id types of Auth.js's documented schema, and the Prisma, Drizzle and Kysely guides'
 * tables through those ORMs) and real Redis (unstorage). Database sessions, and the sign-in
 * sequence again with JWT sessions.
 */
import type { SendVerificationRequestParams } from "@portcullis/core/providers"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@portcullis/core"
import { APP, Harness, e2eConfig, errorOf, idpProvider, useIdp } from "../../core/test/e2e/harness.js"
import { STORE_KINDS, useAuthJsStore } from "./stores.js"

const idp = useIdp()

afterEach(() => {
  vi.useRealTimers()
})

function sessionTokenOf(h: Harness): string | undefined {
  return h.browser.cookies(APP).find((cookie) => cookie.name === "authjs.session-token")?.value
}

async function signOut(h: Harness): Promise<void> {
  await h.browser.navigate(`${APP}/api/auth/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await h.csrfToken() }),
    initiator: `${APP}/api/auth/signout`,
  })
}

/** Forgets the OP's login in this browser, so the next flow shows its login form again. */
function logOutOfIdp(h: Harness): void {
  for (const cookie of h.browser.cookies(idp().issuer)) h.browser.deleteCookie(idp().issuer, cookie.name, { path: cookie.path })
}

/** Asks for an email link as the sign-in page's form does. */
async function requestLink(h: Harness, email: string): Promise<void> {
  await h.browser.navigate(`${APP}/api/auth/signin/email`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await h.csrfToken(), email, callbackUrl: "/welcome" }),
    initiator: `${APP}/api/auth/signin`,
  })
}

/** Opens the emailed link and presses the confirmation page's button, as a person does. */
async function followLink(h: Harness, link: string): Promise<string> {
  const confirm = await h.browser.navigate(link)
  return (await h.browser.submitForm(confirm)).url
}

for (const kind of STORE_KINDS) {
  describe(`sign-in with Auth.js's adapter on ${kind}, database sessions`, () => {
    const store = useAuthJsStore(kind, "signin")
    let sent: SendVerificationRequestParams[] = []
    let created: unknown[] = []

    beforeEach(async () => {
      await store().reset()
      sent = []
      created = []
    })

    function harness(options: { linkByEmail?: boolean } = {}): Harness {
      const config = e2eConfig(
        [
          idpProvider(idp()),
          idpProvider(idp(), { id: "idp-second", name: "Second IdP", allowDangerousEmailAccountLinking: options.linkByEmail === true }),
          {
            id: "email",
            name: "Email",
            type: "email",
            from: "Sign-in <no-reply@app.example>",
            sendVerificationRequest: (params) => {
              sent.push(params)
            },
          },
        ],
        {
          adapter: store().adapter,
          session: { strategy: "database" },
          events: {
            createUser: ({ user }) => {
              created.push(user)
            },
          },
        },
      )
      return new Harness(config)
    }

    it("creates one user and one account on the first sign-in", async () => {
      const h = harness()
      expect((await h.signIn()).url).toBe(`${APP}/protected`)
      expect(await store().count()).toEqual({ users: 1, accounts: 1 })
      const user = await store().adapter.getUserByAccount?.({ provider: "idp", providerAccountId: "alice" })
      expect(user).toMatchObject({ email: "alice@example.com", name: "Alice Example" })
      // Core hands events the id as a string, whatever type the store's id column has.
      expect(created).toEqual([expect.objectContaining({ id: String(user?.id), email: "alice@example.com" })])
    })

    it("reads the session with the user's id, as a string", async () => {
      const h = harness()
      await h.signIn()
      const user = await store().adapter.getUserByAccount?.({ provider: "idp", providerAccountId: "alice" })
      expect(await h.session()).toEqual({
        user: { id: String(user?.id), name: "Alice Example", email: "alice@example.com", image: expect.stringMatching(/alice/) as unknown },
        expires: expect.any(String) as unknown,
        // Auth.js's adapters keep no session records: a database session has nowhere to keep its assurance.
        assurance: { level: 1, methods: [], authTime: 0, signedInAt: 0 },
      })
    })

    it("reuses the user and the account on a second sign-in", async () => {
      await harness().signIn()
      const second = harness()
      expect((await second.signIn()).url).toBe(`${APP}/protected`)
      expect(await second.session()).toMatchObject({ user: { email: "alice@example.com" } })
      expect(await store().count()).toEqual({ users: 1, accounts: 1 })
      expect(created).toHaveLength(1)
    })

    it("deletes the session on sign-out", async () => {
      const h = harness()
      await h.signIn()
      const token = sessionTokenOf(h) ?? ""
      expect(await store().db.session(token)).toBeTruthy()
      await signOut(h)
      expect(await store().db.session(token)).toBeFalsy()
      expect(await h.session()).toBeNull()
    })

    it("reads an expired session as none, and deletes it", async () => {
      const h = harness()
      await h.signIn()
      const token = sessionTokenOf(h) ?? ""
      await store().adapter.updateSession?.({ sessionToken: token, expires: new Date(Date.now() - 1000) })
      expect(await h.session()).toBeNull()
      expect(await store().db.session(token)).toBeFalsy()
    })

    it("refuses to link a second provider by email alone (rule R1), creating nothing", async () => {
      await harness().signIn("idp")
      const other = harness()
      const landed = await other.signIn("idp-second")
      expect(errorOf(landed)).toBe("OAuthAccountNotLinked")
      expect(await other.session()).toBeNull()
      expect(await store().count()).toEqual({ users: 1, accounts: 1 })
    })

    it("links a second provider by email when it sets allowDangerousEmailAccountLinking", async () => {
      await harness({ linkByEmail: true }).signIn("idp")
      const other = harness({ linkByEmail: true })
      expect((await other.signIn("idp-second")).url).toBe(`${APP}/protected`)
      const first = await store().adapter.getUserByAccount?.({ provider: "idp", providerAccountId: "alice" })
      const second = await store().adapter.getUserByAccount?.({ provider: "idp-second", providerAccountId: "alice" })
      expect(String(second?.id)).toBe(String(first?.id))
      expect(await store().count()).toEqual({ users: 1, accounts: 2 })
    })

    it("signs out a browser whose session is already gone from the store", async () => {
      const h = harness()
      await h.signIn()
      const token = sessionTokenOf(h) ?? ""
      await store().adapter.deleteSession?.(token)
      await signOut(h)
      expect(sessionTokenOf(h)).toBeUndefined()
      expect(await h.session()).toBeNull()
    })

    it("creates a user for a new address signing in by email link", async () => {
      const h = harness()
      await requestLink(h, "ada@example.com")
      expect(sent).toHaveLength(1)
      expect(await followLink(h, sent[0]?.url ?? "")).toBe(`${APP}/welcome`)
      const user = await store().adapter.getUserByEmail?.("ada@example.com")
      expect(user?.emailVerified).toBeInstanceOf(Date)
      expect(await h.session()).toMatchObject({ user: { email: "ada@example.com" } })
      expect(await store().count()).toEqual({ users: 1, accounts: 0 })
    })

    it("refuses an email link used once already", async () => {
      const h = harness()
      await requestLink(h, "ada@example.com")
      const link = sent[0]?.url ?? ""
      await followLink(h, link)
      const again = harness()
      const landed = new URL(await followLink(again, link))
      expect(landed.searchParams.get("error")).toBe("Verification")
      expect(await again.session()).toBeNull()
    })

    it("signs nobody in with an expired email link", async () => {
      const h = harness()
      await requestLink(h, "ada@example.com")
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(Date.now() + 2 * 86_400_000)
      const landed = new URL(await followLink(h, sent[0]?.url ?? ""))
      expect(landed.searchParams.get("error")).toBe("Verification")
      expect(await h.session()).toBeNull()
      expect(await store().count()).toEqual({ users: 0, accounts: 0 })
    })
  })
}

for (const kind of STORE_KINDS) {
  describe(`sign-in with Auth.js's adapter on ${kind}, JWT sessions`, () => {
    const store = useAuthJsStore(kind, "signinjwt")

    beforeEach(async () => {
      await store().reset()
    })

    function harness(): Harness {
      const overrides: Partial<AuthConfig> = { adapter: store().adapter, session: { strategy: "jwt" } }
      return new Harness(e2eConfig([idpProvider(idp())], overrides))
    }

    it("stores the user and the account, and keeps the session in the cookie", async () => {
      const h = harness()
      expect((await h.signIn()).url).toBe(`${APP}/protected`)
      expect(await store().count()).toEqual({ users: 1, accounts: 1 })
      const user = await store().adapter.getUserByAccount?.({ provider: "idp", providerAccountId: "alice" })
      expect(await h.session()).toMatchObject({ user: { email: "alice@example.com", id: String(user?.id) } })
      // The session lives in the sealed cookie, not in the store.
      expect(sessionTokenOf(h)).toMatch(/^ey/)
    })

    it("reuses the user on a second sign-in, and signs out", async () => {
      await harness().signIn()
      const h = harness()
      logOutOfIdp(h)
      await h.signIn()
      expect(await store().count()).toEqual({ users: 1, accounts: 1 })
      await signOut(h)
      expect(await h.session()).toBeNull()
    })
  })
}
