/**
 * Second factors at rest on PostgreSQL: a user enrols an authenticator app and gets backup codes
 * through `Auth()`'s routes, then every table of the database is read whole, as a dump would
 * read it. Neither the TOTP secret (in any encoding) nor any backup code (in any case or
 * grouping) may be found: the secret is sealed, the codes keyed-hashed (issue 37 stage 2). So
 * too for password accounts: two sign-ups with one password leave no password in any table, and
 * two different salted hashes (issue 39).
 */
import { Auth, type AuthConfig } from "@portcullis/core"
import { verifyPassword } from "@portcullis/core/password"
import Password from "@portcullis/providers/password"
import { TestBrowser } from "@portcullis/test-kit/browser"
import { base32Bytes, totpCodeAt } from "@portcullis/test-kit/totp"
import { expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { APP, SECRET } from "./instances.js"

const pool = useDatabase("factor_dump", migrate)
const PASSWORD = "correct horse battery staple"

/** Every row of every table in the database's public schema, as text. */
async function dumpEveryTable(): Promise<{ tables: string[]; text: string }> {
  const { rows } = await pool().query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
  const tables = rows.map((row) => row.table_name)
  let text = ""
  for (const table of tables) {
    const dumped = await pool().query(`SELECT * FROM "${table}"`)
    text += `${table}\n${JSON.stringify(dumped.rows)}\n`
  }
  return { tables, text }
}

/** An app on this database that keeps its error log lines in `errors` (the test secret is a weak one: no warning). */
function onThisDatabase(errors: string[]): Pick<AuthConfig, "secret" | "logger" | "trustHost" | "adapter"> {
  return {
    secret: SECRET,
    logger: { error: (error) => void errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    trustHost: true,
    adapter: PostgresAdapter(pool()),
  }
}

it("a dump of every table holds neither the TOTP secret (base32, hex, base64) nor any backup code, in any case or grouping (ASVS V6.5.2, V6.4.x)", async () => {
  const errors: string[] = []
  const config: AuthConfig = {
    ...onThisDatabase(errors),
    session: { strategy: "jwt" },
    mfa: { factors: ["totp"] },
    mail: { send: () => undefined },
    providers: [
      {
        id: "credentials",
        name: "Password",
        type: "credentials",
        credentials: { username: {}, password: {} },
        authorize: ({ password }) => (password === PASSWORD ? { id: "user-dump", name: "Ada", email: "ada@example.com" } : null),
      },
    ],
  }
  const browser = new TestBrowser({ routes: { [APP]: (request) => Auth(request, config) } })
  const csrf = async () => ((await (await browser.request(`${APP}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
  const post = async (path: string, fields: Record<string, string>) =>
    browser.request(`${APP}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ csrfToken: await csrf(), ...fields }).toString(),
      initiator: `${APP}/`,
    })
  expect((await post("/callback/credentials", { username: "ada", password: PASSWORD })).status).toBe(302)
  const { secret } = (await (await post("/mfa/totp/setup", {})).json()) as { secret: string }
  const bytes = base32Bytes(secret)
  const confirmed = await post("/mfa/totp/confirm", { code: totpCodeAt(secret) })
  expect(confirmed.status).toBe(200)
  const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
  const renewed = (await (await post("/mfa/backup-codes", {})).json()) as { backupCodes: string[] }
  expect(renewed.backupCodes).toHaveLength(10)

  expect(errors).toEqual([])

  const { tables, text } = await dumpEveryTable()
  expect(tables).toContain("auth_factors")
  // What is searched holds the factors: one authenticator and the ten live backup codes.
  expect((await pool().query(`SELECT type FROM auth_factors WHERE "userId" = 'user-dump'`)).rows).toHaveLength(11)
  expect(text).toContain("user-dump")
  const dump = text.toLowerCase()
  const forms = [secret, secret.replace(/=+$/, ""), bytes.toString("hex"), bytes.toString("base64"), bytes.toString("base64url")]
  for (const form of forms) expect(dump).not.toContain(form.toLowerCase())
  for (const code of [...backupCodes, ...renewed.backupCodes]) {
    for (const form of [code, code.replace(/[-\s]/g, ""), code.toUpperCase()]) expect(dump).not.toContain(form.toLowerCase())
  }
})

it("after two sign-ups with one password, no table holds the password (in UTF-8 or base64) and the two users' hashes differ (NIST SP 800-63B rev 4 §3.1.1.2)", async () => {
  const shared = "one long password shared by two users"
  const errors: string[] = []
  const config: AuthConfig = {
    ...onThisDatabase(errors),
    providers: [Password()],
    mail: { send: () => undefined },
  }
  for (const email of ["grace@example.com", "linus@example.com"]) {
    const browser = new TestBrowser({ routes: { [APP]: (request) => Auth(request, config) } })
    const { csrfToken } = (await (await browser.request(`${APP}/api/auth/csrf`)).json()) as { csrfToken: string }
    const signedUp = await browser.request(`${APP}/api/auth/password/signup`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, password: shared }).toString(),
      initiator: `${APP}/api/auth/password/signup`,
    })
    expect(signedUp.status).toBeLessThan(400)
  }
  expect(errors).toEqual([])
  const { rows } = await pool().query<{ hash: string }>(`SELECT hash FROM passwords JOIN users ON users.id::text = passwords."userId" WHERE users.email IN ('grace@example.com', 'linus@example.com')`)
  expect(rows).toHaveLength(2)
  const [first, second] = rows.map((row) => row.hash)
  expect(first).not.toBe(second)
  for (const hash of [first, second]) expect(await verifyPassword(hash ?? "", shared)).toEqual({ ok: true, rehash: false })
  const { text } = await dumpEveryTable()
  for (const form of [shared, Buffer.from(shared).toString("base64").replace(/=+$/u, ""), Buffer.from(shared).toString("hex")]) expect(text).not.toContain(form)
})
