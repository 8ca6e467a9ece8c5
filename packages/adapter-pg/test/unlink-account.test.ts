/**
 * Unlinking an account through `Auth()` on PostgreSQL, with a real OpenID Provider: the row
 * leaves `accounts`, the refresh token is revoked at the provider (RFC 7009, under
 * `revokeTokensOnSignOut`) and refused there from then on; the user's last way in is kept.
 */
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { Auth, type AuthConfig } from "@portcullis/core"
import { TestBrowser } from "@portcullis/test-kit/browser"
import { afterAll, beforeAll, expect, it } from "vitest"
import { PostgresAdapter, migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { ALICE, APP, CLIENT, SECRET } from "./instances.js"

const pool = useDatabase("unlink_account", migrate)
let idp: DevIdp | undefined
beforeAll(async () => {
  idp = await startDevIdp({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: ["idp", "idp-second"].map((id) => `${APP}/api/auth/callback/${id}`),
        grant_types: ["authorization_code", "refresh_token"],
      },
    ],
    consent: "auto",
  })
})
afterAll(async () => {
  await idp?.close()
})

function running(): DevIdp {
  if (idp === undefined) throw new Error("the IdP is only there inside tests")
  return idp
}

/** `idp` (its tokens revoked with the account) and `idp-second`, two providers at one IdP, on PostgreSQL with database sessions. */
function appConfig(errors: string[]): AuthConfig {
  const provider = (id: string, revokeTokensOnSignOut: boolean) => ({
    id,
    name: id,
    type: "oidc" as const,
    issuer: running().issuer,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    checks: ["pkce" as const, "state" as const, "nonce" as const],
    allowInsecureLoopbackRequests: true,
    revokeTokensOnSignOut,
  })
  return {
    secret: SECRET,
    trustHost: true,
    adapter: PostgresAdapter(pool()),
    session: { strategy: "database" },
    providers: [provider("idp", true), provider("idp-second", false)],
    logger: { error: (error) => void errors.push(`${error.code}: ${error.message}`), warn: () => undefined },
  }
}

/** A browser on the app served in process. */
function visitor(config: AuthConfig) {
  const browser = new TestBrowser({ routes: { [APP]: (request) => (new URL(request.url).pathname.startsWith("/api/auth") ? Auth(request, config) : Promise.resolve(new Response("app"))) } })
  const csrf = async (): Promise<string> => ((await (await browser.request(`${APP}/api/auth/csrf`)).json()) as { csrfToken: string }).csrfToken
  return {
    async signIn(providerId: string): Promise<string> {
      let page = await browser.navigate(`${APP}/api/auth/signin/${providerId}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await csrf(), callbackUrl: "/protected" }),
        initiator: `${APP}/api/auth/signin`,
      })
      for (let step = 0; step < 3 && new URL(page.url).origin !== APP && page.body.includes("<form"); step++) {
        page = page.body.includes(">Allow<") ? await browser.submitForm(page, { button: "Allow" }) : await browser.submitForm(page, { values: ALICE })
      }
      return page.url
    },
    async userId(): Promise<string> {
      return ((await (await browser.request(`${APP}/api/auth/session`)).json()) as { user: { id: string } }).user.id
    },
    async unlink(provider: string): Promise<Response> {
      return browser.request(`${APP}/api/auth/accounts/unlink`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await csrf(), provider }),
        initiator: `${APP}/settings`,
      })
    },
  }
}

async function accountsOf(userId: string): Promise<{ provider: string; refresh_token: string | null }[]> {
  const { rows } = await pool().query<{ provider: string; refresh_token: string | null }>(`SELECT provider, refresh_token FROM accounts WHERE "userId" = $1 ORDER BY provider`, [userId])
  return rows
}

it("unlinks an account on PostgreSQL, revoking its refresh token at the provider, which refuses it from then on; the last account stays", async () => {
  const errors: string[] = []
  const alice = visitor(appConfig(errors))
  expect(await alice.signIn("idp")).toBe(`${APP}/protected`)
  const userId = await alice.userId()

  // The only way in: refused, the row and its tokens kept.
  const refused = await alice.unlink("idp")
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ error: "LastSignInMethod" })
  const [kept] = await accountsOf(userId)
  const refreshToken = kept?.refresh_token ?? ""
  expect(refreshToken.length).toBeGreaterThan(10)
  expect(running().revocations).toEqual([])

  // Linked a second account: now `idp` can go.
  expect(await alice.signIn("idp-second")).toBe(`${APP}/protected`)
  const response = await alice.unlink("idp")
  expect(response.status, errors.join("\n")).toBe(200)
  expect((await accountsOf(userId)).map((account) => account.provider)).toEqual(["idp-second"])
  expect(running().revocations.find((record) => record.tokenTypeHint === "refresh_token")).toMatchObject({ token: refreshToken, revoked: "refresh_token", status: 200 })
  const grant = await fetch(`${running().issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}` },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  })
  expect(grant.status).toBe(400)
  expect(await grant.json()).toMatchObject({ error: "invalid_grant" })

  // And the last one left is kept.
  expect(await (await alice.unlink("idp-second")).json()).toMatchObject({ error: "LastSignInMethod" })
  expect((await accountsOf(userId)).map((account) => account.provider)).toEqual(["idp-second"])
  // Nothing went wrong but the two refusals, each logged with its reason.
  expect(errors.filter((line) => !line.startsWith("LastSignInMethod:"))).toEqual([])
})
