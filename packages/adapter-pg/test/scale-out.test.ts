/**
 * Two app instances in separate Node processes share one PostgreSQL database behind one public
 * origin (a round-robin-free "load balancer" the test steers), with a real OpenID Provider.
 */
import { describe, expect, it } from "vitest"
import { useDatabase } from "./databases.js"
import type { Page } from "@portcullis/test-kit/browser"
import { sealFactorSecret } from "../../core/src/factors/sealed-secret.js"
import { newTotpSecret, totpCode, totpStep } from "../../core/src/factors/totp.js"
import { PostgresAdapter, migrate } from "../src/index.js"
import { ALICE, APP, BOB, SECRET, Visitor, useTwoInstances, type Instance } from "./instances.js"

describe("two app instances in separate processes, one PostgreSQL database", () => {
  const pool = useDatabase("scale_out", migrate)
  const instances = useTwoInstances(() => ({ DATABASE_URL: String(pool().options.connectionString), EMAIL_LINKS: "1", MFA: "1" }))

  async function count(sql: string, values: unknown[]): Promise<number> {
    const { rows } = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, values)
    return Number(rows[0]?.n)
  }

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
    expect(await count(`sessions`, [])).toBe(0)

    visitor.target = first
    expect((await visitor.session())?.user).toBeUndefined()
  })

  it("concurrent first sign-ins of one IdP user through A and B create exactly one user and one account", async () => {
    const [first, second] = instances()
    const visitors = [new Visitor(first), new Visitor(second)]
    const callbacks = await Promise.all(visitors.map((visitor) => visitor.signInUntilCallback(ALICE)))
    const pages = await Promise.all(visitors.map((visitor, i) => visitor.release(callbacks[i] as URL)))

    expect(await count(`users WHERE email = $1`, ["alice@example.com"])).toBe(1)
    expect(await count(`accounts WHERE provider = 'idp' AND "providerAccountId" = $1`, ["alice"])).toBe(1)
    // Whichever loses the race signs in as the winner's user: its createUserWithAccount (one
    // transaction) hits the unique email or account, or it reads the winner's user and account
    // together, and either way it re-reads the account's user.
    expect(pages.map((page) => page.url), [first, second].flatMap((instance) => instance.output).join("\n")).toEqual([`${APP}/protected`, `${APP}/protected`])
    const sessions = await Promise.all(visitors.map((visitor) => visitor.session()))
    expect(sessions[0]?.user?.id).toBeDefined()
    expect(sessions[0]?.user?.id).toBe(sessions[1]?.user?.id)
    expect(await count(`users`, [])).toBe(2)
  })

  it("concurrent first sign-ins by link, 4 links to each of 10 new addresses followed at once through A and B, all end signed in as the one user of their address", async () => {
    const [first, second] = instances()
    const through = (i: number): Instance => (i % 2 === 0 ? first : second)
    const addresses = Array.from({ length: 10 }, (_, i) => `linked-${String(i)}@example.com`)
    const requests = addresses.flatMap((address) => [0, 1, 2, 3].map(() => address))
    await Promise.all(requests.map((address, i) => new Visitor(through(i)).requestLink(address)))
    const links = [first, second].flatMap((instance) => instance.output.filter((line) => line.startsWith("mail-link ")).map((line) => new URL(line.slice("mail-link ".length))))
    expect(links).toHaveLength(requests.length)

    const visitors = links.map((_, i) => new Visitor(through(i)))
    const csrfTokens = await Promise.all(visitors.map((visitor) => visitor.csrfToken()))
    const pages = await Promise.all(visitors.map((visitor, i) => visitor.followLink(links[i] as URL, csrfTokens[i] as string)))
    const output = [first, second].flatMap((instance) => instance.output.filter((line) => line.startsWith("auth-error"))).join("\n")
    expect(pages.map((page) => page.url), output).toEqual(links.map(() => `${APP}/welcome`))

    const sessions = await Promise.all(visitors.map((visitor) => visitor.session()))
    const { rows } = await pool().query<{ id: string; email: string }>(`SELECT id::text, email FROM users WHERE email LIKE 'linked-%'`)
    expect(rows.map((row) => row.email).sort()).toEqual(addresses)
    const ids = new Map(rows.map((row) => [row.email, row.id]))
    expect(sessions.map((session) => session?.user?.id)).toEqual(links.map((link) => ids.get(link.searchParams.get("email") ?? "")))
  })

  it("V6.5.1, RFC 6238 §5.2: a TOTP code accepted through A is refused through B, each holding a pending sign-in of the same user", async () => {
    const [first, second] = instances()
    // Bob signs in without a factor (finding or making his user), then gets a TOTP factor.
    const enrolling = new Visitor(first)
    expect((await enrolling.signIn(BOB)).url).toBe(`${APP}/protected`)
    const userId = (await enrolling.session())?.user?.id ?? ""
    const secret = newTotpSecret()
    await PostgresAdapter(pool()).createAuthFactor({ id: crypto.randomUUID(), userId, type: "totp", secret: await sealFactorSecret([SECRET], secret, userId), createdAt: new Date(), confirmedAt: new Date() })

    const visitors = [new Visitor(first), new Visitor(second)]
    const challenges = await Promise.all(visitors.map((visitor) => visitor.signIn(BOB)))
    expect(challenges.map((page) => page.url)).toEqual([`${APP}/api/auth/mfa`, `${APP}/api/auth/mfa`])
    expect(await Promise.all(visitors.map((visitor) => visitor.session()))).toEqual([null, null])
    const code = await totpCode(secret, totpStep())
    const [throughA, throughB] = visitors as [Visitor, Visitor]
    const done = await throughA.browser.submitForm(challenges[0] as Page, { values: { code } })
    expect(done.url).toBe(`${APP}/protected`)
    const refused = await throughB.browser.submitForm(challenges[1] as Page, { values: { code } })
    expect(refused.url).toBe(`${APP}/api/auth/mfa?error=replayed`)
    expect(await throughA.session()).toMatchObject({ user: { id: userId }, assurance: { level: 2, methods: ["fed", "otp", "mfa"] } })
    expect(await throughB.session()).toBeNull()
  })
})
