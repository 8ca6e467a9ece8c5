/**
 * Auth.js's ORM adapters behind two app instances in separate Node processes sharing one
 * PostgreSQL database, as @portcullis/adapter-pg's scale-out test runs ours (its harness and
 * instance script, with the ORM adapter loaded in each process): a session made through one
 * instance is read and ended through the other, and concurrent first sign-ins of one user
 * through both make one user and one account.
 */
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { ALICE, APP, BOB, Visitor, useTwoInstances } from "../../adapter-pg/test/instances.js"
import { useAuthJsStore, type OrmKind } from "./stores.js"

const ADAPTER_MODULE = fileURLToPath(new URL("orm/instance-adapter.ts", import.meta.url))
const ORMS: readonly OrmKind[] = ["prisma", "drizzle", "kysely"]

for (const kind of ORMS) {
  describe(`two app instances on Auth.js's ${kind} adapter, one PostgreSQL database`, () => {
    const store = useAuthJsStore(kind, "scaleout")
    const instances = useTwoInstances(() => ({ DATABASE_URL: store().databaseUrl ?? "", ADAPTER_MODULE, ORM_KIND: kind }))

    it("a session made through A is read through B, and signing out through B ends it for A", async () => {
      const [first, second] = instances()
      const visitor = new Visitor(first)
      const landed = await visitor.signIn(BOB)
      expect(landed.url, first.output.join("\n")).toBe(`${APP}/protected`)
      const throughA = await visitor.session()
      expect(throughA).toMatchObject({ user: { email: "bob@example.net" } })

      visitor.target = second
      expect(await visitor.session()).toEqual(throughA)
      await visitor.signOut()
      visitor.target = first
      expect((await visitor.session())?.user).toBeUndefined()
    })

    it("concurrent first sign-ins of one IdP user through A and B make one user and one account", async () => {
      const [first, second] = instances()
      const before = await store().count()
      const visitors = [new Visitor(first), new Visitor(second)]
      const callbacks = await Promise.all(visitors.map((visitor) => visitor.signInUntilCallback(ALICE)))
      const pages = await Promise.all(visitors.map((visitor, i) => visitor.release(callbacks[i] as URL)))
      const outcomes = pages.map((page) => new URL(page.url))
      expect(outcomes.some((url) => url.pathname === "/protected"), `${JSON.stringify(outcomes)}\n${first.output.join("\n")}\n${second.output.join("\n")}`).toBe(true)
      // The loser of an overlap may fail (these adapters write the user and the account apart, most
      // schemas without unique keys) and signs in on retry.
      for (const [i, url] of outcomes.entries()) {
        if (url.pathname === "/protected") continue
        expect(["AdapterError", "OAuthAccountNotLinked"]).toContain(url.searchParams.get("error"))
        expect((await (visitors[i] as Visitor).signIn(ALICE)).url).toBe(`${APP}/protected`)
      }
      const sessions = await Promise.all(visitors.map((visitor) => visitor.session()))
      expect(sessions[0]?.user?.id).toBeDefined()
      expect(sessions[0]?.user?.id).toBe(sessions[1]?.user?.id)
      expect(await store().count()).toEqual({ users: before.users + 1, accounts: before.accounts + 1 })
    })
  })
}
