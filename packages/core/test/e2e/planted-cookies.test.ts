/**
 * Security item 2: cookies another browser (or a sibling subdomain) plants. An attacker runs a
 * real flow in their own browser, stops before the callback, and plants what they hold in the
 * victim's. The check values must not work there, and no account may be linked to a user who
 * did not start the flow.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { Auth } from "../../src/index.js"
import { APP, Harness, e2eConfig, errorOf, idpProvider, useIdp } from "./harness.js"

const idp = useIdp()
const BOB = { login: "bob@example.net", password: "bob-password" }

function setup() {
  const adapter = MemoryAdapter()
  const config = e2eConfig([idpProvider(idp()), idpProvider(idp(), { id: "idp-second", name: "Second IdP" })], { adapter })
  return { adapter, config, browser: () => new Harness(config) }
}

/** Copies cookies from one browser to another, as a sibling subdomain's `Domain=` cookie would arrive. */
function plant(from: Harness, to: Harness, names: (name: string) => boolean): void {
  for (const cookie of from.browser.cookies(APP)) if (names(cookie.name)) to.browser.setCookie(APP, { name: cookie.name, value: cookie.value, path: "/" })
}

const isCheckCookie = (name: string): boolean => /authjs\.(state|pkce\.code_verifier|nonce)$/.test(name)

describe("planted cookies", () => {
  it("planted PKCE, state and nonce with the attacker's code, in a signed-in victim's browser: refused, nothing linked", async () => {
    const { adapter, config, browser } = setup()
    const victim = browser()
    await victim.signIn("idp")
    const victimUser = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })

    const attacker = browser()
    attacker.hold = true
    await attacker.login(await attacker.startSignIn("idp-second"), BOB)
    const callback = attacker.held
    expect(callback).toBeDefined()

    plant(attacker, victim, isCheckCookie)
    const landed = await victim.callback(callback ?? "")
    expect(errorOf(landed)).toBe("InvalidCheck")
    expect(config.errors.join("\n")).toMatch(/another browser/)
    expect(await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "bob" })).toBeNull()
    expect(await victim.session()).toMatchObject({ user: { id: victimUser?.id } })
  })

  it("a session cookie planted mid-flow: the victim's new account is not linked into the attacker's user", async () => {
    const { adapter, browser } = setup()
    const attacker = browser()
    await attacker.login(await attacker.startSignIn("idp-second"), BOB)
    const attackerUser = await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "bob" })
    expect(attackerUser).not.toBeNull()

    const victim = browser()
    victim.hold = true
    await victim.signIn("idp")
    const callback = victim.held
    plant(attacker, victim, (name) => name.endsWith("session-token"))
    await victim.callback(callback ?? "")

    const victimUser = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    expect(victimUser).not.toBeNull()
    expect(victimUser?.id).not.toBe(attackerUser?.id)
    expect(await victim.session()).toMatchObject({ user: { id: victimUser?.id } })
  })

  it("still links a new account for a user who is signed in and started the flow", async () => {
    const { adapter, browser } = setup()
    const user = browser()
    await user.signIn("idp")
    await user.signIn("idp-second")
    const first = await adapter.getUserByAccount({ provider: "idp", providerAccountId: "alice" })
    const second = await adapter.getUserByAccount({ provider: "idp-second", providerAccountId: "alice" })
    expect(second?.id).toBe(first?.id)
  })

  it("check values sealed on another origin (same secret) are refused", async () => {
    const { config, browser } = setup()
    const other = "http://localhost:3001"
    const started = browser()
    started.hold = true
    await started.signIn("idp")
    const callback = new URL(started.held ?? "")
    // The same cookies and callback, replayed to another deployment that shares the secret.
    const cookie = started.browser.cookies(APP).map((c) => `${c.name}=${c.value}`).join("; ")
    const response = await Auth(new Request(`${other}${callback.pathname}${callback.search}`, { headers: { cookie } }), config)
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("InvalidCheck")
    expect(config.errors.join("\n")).toMatch(/issued for a sign-in on http:\/\/localhost:3000/)
  })
})
