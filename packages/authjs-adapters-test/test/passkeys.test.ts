/**
 * Passkeys through our `Auth()` on Auth.js's adapters that have authenticator methods (Prisma's
 * and Drizzle's on their guides' tables, unstorage's on Redis): a new user registers a passkey,
 * then signs in with it in another browser. Their tables keep only Auth.js's authenticator
 * fields, so core stores no more there (name, AAGUID and dates are this project's additions).
 */
import { beforeEach, describe, expect, it } from "vitest"
import { Jar, ORIGIN, testConfig } from "../../core/test/helpers.js"
import { SoftAuthenticator } from "../../core/test/webauthn/authenticator.js"
import { options, passkeyProvider, post, session } from "../../core/test/webauthn/harness.js"
import { useAuthJsStore, type StoreKind } from "./stores.js"

/** The stores whose Auth.js adapter has authenticator methods. */
const WITH_AUTHENTICATORS: readonly StoreKind[] = ["prisma", "drizzle", "unstorage-redis"]

for (const kind of WITH_AUTHENTICATORS) {
  describe(`passkeys with Auth.js's adapter on ${kind}`, () => {
    const store = useAuthJsStore(kind, "passkeys")
    const errors: string[] = []

    beforeEach(async () => {
      await store().reset()
      errors.length = 0
    })

    function config() {
      return testConfig({
        adapter: store().adapter,
        session: { strategy: "database" },
        providers: [passkeyProvider() as never],
        logger: { error: (error) => errors.push(`${error.code}: ${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`), warn: () => undefined },
      })
    }

    it("registers a passkey for a new user, then signs in with it in another browser", async () => {
      const app = config()
      const device = new SoftAuthenticator(ORIGIN)
      const signUp = new Jar()
      const { options: creation } = await options(app, signUp, "?action=register&email=ada%40example.com")
      const registered = await post(app, signUp, "register", await device.create(creation))
      expect(registered.status, errors.join("\n")).toBe(302)
      expect(registered.headers.get("location")).toBe(`${ORIGIN}/account`)
      const user = await store().adapter.getUserByEmail?.("ada@example.com")
      expect((await session(app, signUp))?.user?.id).toBe(String(user?.id))

      const stored = await store().adapter.listAuthenticatorsByUserId?.(String(user?.id))
      expect(stored).toHaveLength(1)
      expect(String(stored?.[0]?.userId)).toBe(String(user?.id))
      const registeredCounter = stored?.[0]?.counter ?? Infinity

      const other = new Jar()
      const { options: request } = await options(app, other, "?action=authenticate")
      const signedIn = await post(app, other, "authenticate", await device.get(request))
      expect(signedIn.status, errors.join("\n")).toBe(302)
      expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/account`)
      expect((await session(app, other))?.user?.id).toBe(String(user?.id))
      // The counter the authenticator reported was stored, so a cloned one would be caught.
      expect((await store().adapter.getAuthenticator?.(stored?.[0]?.credentialID ?? ""))?.counter).toBeGreaterThan(registeredCounter)
    })
  })
}
