// The OpenID provider's own multi-factor login as the second factor (issue 37 stage 3): with
// `trustProviderMfa`, an ID token whose `amr` shows two factors (RFC 8176 §2) or whose `acr` is one
// of `acrValues` (OIDC Core §2, sent as `acr_values`, §3.1.2.1) passes the gate at level 2; without
// the option, or from userinfo rather than the validated ID token, the same claims count for nothing.
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { DEFAULT_ACCOUNTS, MFA_ACR } from "@portcullis/dev-idp"
import { decodeJwt } from "jose"
import { describe, expect, it } from "vitest"
import type { OIDCConfig } from "../../src/providers/index.js"
import type { AuditEvent } from "../../src/types.js"
import { APP, Harness, e2eConfig, idpProvider, useIdp } from "./harness.js"

const idp = useIdp({
  consent: "auto",
  // Dave's login says one factor in `amr`, but its `acr` names a context the app may trust.
  accounts: [...DEFAULT_ACCOUNTS, { sub: "dave", email: "dave@example.org", name: "Dave Example", password: "dave-password", amr: ["pwd"], acr: "urn:example:loa:high" }],
})
const CAROL = { login: "carol@example.org", password: "carol-password" }
const DAVE = { login: "dave@example.org", password: "dave-password" }

/** Every user owes a second factor: only the provider's own MFA lets one in without `/mfa`. */
function setup(provider: Partial<OIDCConfig> = {}): { h: Harness; audits: AuditEvent[] } {
  const audits: AuditEvent[] = []
  const config = e2eConfig([idpProvider(idp(), provider)], { adapter: MemoryAdapter(), mfa: { required: true }, events: { audit: (event) => void audits.push(event) } })
  return { h: new Harness(config), audits }
}

async function signIn(h: Harness, account: { login: string; password: string }): Promise<string> {
  return (await h.login(await h.startSignIn("idp"), account)).url
}

describe("trustProviderMfa", () => {
  it("RFC 8176 §2: an amr of pwd and otp (two categories) from a trusted provider passes the gate: level 2, methods fed and mfa", async () => {
    const { h, audits } = setup({ trustProviderMfa: true })
    expect(await signIn(h, CAROL)).toBe(`${APP}/protected`)
    expect(await h.session()).toMatchObject({ user: { email: "carol@example.org" }, assurance: { level: 2, methods: ["fed", "mfa"] } })
    expect(audits.at(-1)).toMatchObject({ type: "signIn", outcome: "success", methods: ["fed", "mfa"] })
  })

  it("the same amr from a provider without the option counts for nothing: the sign-in pends", async () => {
    const { h } = setup()
    expect(await signIn(h, CAROL)).toBe(`${APP}/api/auth/mfa/setup`)
    expect(await h.session()).toBeNull()
  })

  it("an amr of one factor (pwd) from a trusted provider pends", async () => {
    const { h } = setup({ trustProviderMfa: true })
    expect((await h.signIn("idp")).url).toBe(`${APP}/api/auth/mfa/setup`)
    expect(await h.session()).toBeNull()
  })

  it("OIDC Core §3.1.2.1: acrValues are sent as acr_values, and an acr among them counts though amr shows one factor", async () => {
    const { h } = setup({ trustProviderMfa: true, acrValues: ["urn:example:loa:high", MFA_ACR] })
    expect(await signIn(h, DAVE)).toBe(`${APP}/protected`)
    const authorize = idp().requests.find((request) => request.path === "/auth")
    expect(new URLSearchParams(authorize?.search).get("acr_values")).toBe(`urn:example:loa:high ${MFA_ACR}`)
    expect(await h.session()).toMatchObject({ assurance: { level: 2, methods: ["fed", "mfa"] } })
  })

  it("an acr that is not listed counts for nothing (dave's amr is one factor)", async () => {
    const { h } = setup({ trustProviderMfa: true, acrValues: [MFA_ACR] })
    expect(await signIn(h, DAVE)).toBe(`${APP}/api/auth/mfa/setup`)
  })

  it("OIDC Core §5.3.2: amr in the userinfo answer, not in the validated ID token, counts for nothing", async () => {
    const { h } = setup({ trustProviderMfa: true, idToken: false })
    idp().onUserinfoResponse(({ body }) => ({ body: { ...(body as object), amr: ["mfa", "pwd", "otp"], acr: MFA_ACR } }))
    expect((await h.signIn("idp")).url).toBe(`${APP}/api/auth/mfa/setup`)
  })

  it("V7.5.1: a re-authentication at a trusted provider with a multi-factor login proves level 2 again", async () => {
    const { h } = setup({ trustProviderMfa: true })
    await signIn(h, CAROL)
    const login = await h.browser.navigate(`${APP}/api/auth/reauth/idp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await h.csrfToken(), callbackUrl: `${APP}/settings` }),
      initiator: `${APP}/api/auth/reauth`,
    })
    expect((await h.login(login, CAROL)).url).toBe(`${APP}/settings`)
    expect(await h.session()).toMatchObject({ assurance: { level: 2, methods: ["fed", "mfa"] } })
  })

  it("a hostile amr (not an array of strings) counts for nothing and fails nothing", async () => {
    const { h } = setup({ trustProviderMfa: true })
    idp().onTokenResponse(async ({ body }) => ({ body: { ...body, id_token: await idp().signJwt({ ...decodeJwt(String(body.id_token)), amr: "pwd otp mfa" }) } }))
    expect(await signIn(h, CAROL)).toBe(`${APP}/api/auth/mfa/setup`)
  })
})
