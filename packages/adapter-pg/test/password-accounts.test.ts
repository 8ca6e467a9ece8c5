/**
 * Password accounts (`Password()`) on PostgreSQL: sign-up, the confirmation link, sign-in, reset
 * and change through `Auth()`'s routes, then every table of the database read whole, as a dump
 * would read it. No password is found in any encoding, and two users who chose one password have
 * different hashes (issue 39).
 */
import { Auth, type AuthConfig, type MailMessage } from "@portcullis/core"
import Password from "@portcullis/providers/password"
import { TestBrowser } from "@portcullis/test-kit/browser"
import { expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { APP, SECRET } from "./instances.js"

const pool = useDatabase("password_accounts", migrate)
const SHARED = "the same long phrase for two people"
const NEW = "a second phrase chosen after the reset"

/** Every row of every table in the database's public schema, as text. */
async function dumpEveryTable(): Promise<string> {
  const { rows } = await pool().query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
  let text = ""
  for (const { table_name: table } of rows) text += `${table}\n${JSON.stringify((await pool().query(`SELECT * FROM "${table}"`)).rows)}\n`
  return text
}

it("signs up, confirms, signs in, resets and changes on PostgreSQL; a dump of every table holds no password, and two users with one password have different hashes (NIST SP 800-63B rev 4 §3.1.1.2, ASVS 6.2.8)", async () => {
  const mails: MailMessage[] = []
  const errors: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: { error: (error) => void errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
    adapter: PostgresAdapter(pool()),
    providers: [Password()],
    mail: { send: (mail) => void mails.push(mail) },
  }
  const browser = new TestBrowser({ routes: { [APP]: (request) => Auth(request, config) } })
  const post = async (path: string, fields: Record<string, string>) => {
    const { csrfToken } = (await (await browser.request(`${APP}/api/auth/csrf`)).json()) as { csrfToken: string }
    return browser.request(`${APP}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
      body: new URLSearchParams({ csrfToken, ...fields }).toString(),
      initiator: `${APP}/`,
    })
  }
  const link = async (to: string, kind: MailMessage["kind"]) => {
    await expect.poll(() => mails.some((mail) => mail.to === to && mail.kind === kind)).toBe(true)
    const url = new URL(mails.filter((mail) => mail.to === to && mail.kind === kind).at(-1)?.url ?? "")
    return url.searchParams.get("token") ?? ""
  }

  for (const email of ["ada@example.com", "grace@example.com"]) expect((await post("/password/signup", { email, password: SHARED })).status).toBe(200)
  expect((await post("/password/verify", { token: await link("ada@example.com", "passwordVerify") })).status).toBe(200)
  expect((await post("/callback/password", { email: "ada@example.com", password: SHARED })).status).toBe(200)
  expect(((await (await browser.request(`${APP}/api/auth/session`)).json()) as { user: { email: string } }).user.email).toBe("ada@example.com")

  expect((await post("/password/reset-request", { email: "ada@example.com" })).status).toBe(200)
  expect((await post("/password/reset", { token: await link("ada@example.com", "passwordReset"), password: NEW })).status).toBe(200)
  expect(await (await browser.request(`${APP}/api/auth/session`)).json()).toBeNull()
  const refused = (await (await post("/callback/password", { email: "ada@example.com", password: SHARED })).json()) as { url: string }
  expect(refused.url).toContain("error=CredentialsSignin")
  expect((await post("/callback/password", { email: "ada@example.com", password: NEW })).status).toBe(200)
  expect((await post("/password/change", { currentPassword: NEW, newPassword: SHARED })).status).toBe(200)
  // The one refusal: the old password after the reset.
  expect(errors).toEqual([expect.stringMatching(/^CredentialsSignin: /)])

  const { rows } = await pool().query<{ hash: string }>(`SELECT p.hash FROM passwords p JOIN users u ON u.id::text = p."userId" ORDER BY u.email`)
  expect(rows).toHaveLength(2)
  for (const { hash } of rows) expect(hash).toMatch(/^\$scrypt\$ln=14,r=8,p=5\$/)
  expect(rows[0]?.hash).not.toBe(rows[1]?.hash)
  const dump = (await dumpEveryTable()).toLowerCase()
  expect(dump).toContain("ada@example.com")
  for (const password of [SHARED, NEW]) {
    const bytes = Buffer.from(password)
    for (const form of [password, bytes.toString("hex"), bytes.toString("base64"), bytes.toString("base64url"), encodeURIComponent(password)]) expect(dump).not.toContain(form.toLowerCase())
  }
})
