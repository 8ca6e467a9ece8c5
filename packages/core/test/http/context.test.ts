/**
 * `answerRoute`, the one way the routes added since the second factors answer: a form, the
 * fetch-based client (`X-Auth-Return-Redirect: 1`) and a script (`Accept: application/json`)
 * each get what they can use, for a success and for a refusal alike.
 */
import { describe, expect, it } from "vitest"

import { resolveConfig } from "../../src/config/config.js"
import { answerRoute, createContext, redirect } from "../../src/http/context.js"
import type { RequestContext } from "../../src/internal.js"
import { ORIGIN, testConfig } from "../helpers.js"

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

async function contextFor(headers: Record<string, string>): Promise<RequestContext> {
  const url = new URL(`${ORIGIN}/api/auth/mfa/verify`)
  const context = createContext(await resolveConfig(testConfig()), new Request(url, { method: "POST", headers }), url)
  context.setCookies.push({ name: "kept", value: "1", options: { path: "/" } })
  return context
}

const DONE = `${ORIGIN}/dashboard`
const PAGE = `${ORIGIN}/api/auth/mfa?callbackUrl=%2Fdashboard`

describe("answerRoute: the JSON conventions of every new route", () => {
  it("a form post that succeeds: 303 See Other to the next page (RFC 9110 §15.4.4), cookies kept", async () => {
    const response = answerRoute(await contextFor({ accept: BROWSER_ACCEPT }), { url: DONE })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(DONE)
    expect(response.headers.getSetCookie()).toEqual(["kept=1; Path=/"])
  })

  it("a form post that is refused: 303 back to the page, with the error for it to show", async () => {
    const response = answerRoute(await contextFor({ accept: BROWSER_ACCEPT }), { url: PAGE, error: "invalidCode", status: 401 })
    expect(response.status).toBe(303)
    const location = new URL(response.headers.get("location") ?? "")
    expect(location.pathname).toBe("/api/auth/mfa")
    expect(Object.fromEntries(location.searchParams)).toEqual({ callbackUrl: "/dashboard", error: "invalidCode" })
  })

  it("X-Auth-Return-Redirect: 1: 200 { url } on success, 200 { url, error } on a refusal", async () => {
    const ok = answerRoute(await contextFor({ "x-auth-return-redirect": "1", accept: "*/*" }), { url: DONE })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ url: DONE })
    const refused = answerRoute(await contextFor({ "x-auth-return-redirect": "1", accept: "application/json" }), { url: PAGE, error: "invalidCode", status: 401 })
    expect(refused.status).toBe(200)
    expect(await refused.json()).toEqual({ url: `${ORIGIN}/api/auth/mfa?callbackUrl=%2Fdashboard&error=invalidCode`, error: "invalidCode" })
  })

  it("Accept: application/json: 200 { url } on success, the 4xx status with { error } on a refusal", async () => {
    const ok = answerRoute(await contextFor({ accept: "application/json" }), { url: DONE })
    expect(ok.status).toBe(200)
    expect(ok.headers.get("content-type")).toBe("application/json")
    expect(await ok.json()).toEqual({ url: DONE })
    const refused = answerRoute(await contextFor({ accept: "application/json" }), { url: PAGE, error: "locked", status: 423 })
    expect(refused.status).toBe(423)
    expect(await refused.json()).toEqual({ error: "locked" })
    const defaulted = answerRoute(await contextFor({ accept: "application/json" }), { url: PAGE, error: "invalidCode" })
    expect(defaulted.status).toBe(400)
  })

  it("never cached: every form of the answer carries no-store", async () => {
    const variants: Record<string, string>[] = [{ accept: BROWSER_ACCEPT }, { accept: "application/json" }, { "x-auth-return-redirect": "1" }]
    for (const headers of variants) {
      expect(answerRoute(await contextFor(headers), { url: DONE }).headers.get("cache-control")).toContain("no-store")
    }
  })

  it("leaves the existing redirect as it was: 302, or { url } for X-Auth-Return-Redirect", async () => {
    expect(redirect(await contextFor({ accept: BROWSER_ACCEPT }), DONE).status).toBe(302)
    expect(await redirect(await contextFor({ "x-auth-return-redirect": "1" }), DONE).json()).toEqual({ url: DONE })
  })
})
