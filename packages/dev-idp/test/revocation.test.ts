import * as oauth from "oauth4webapi"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"

import { startDevIdp, type DevIdp } from "../src/index.js"
import { REDIRECT_URI, beginFlow, clickThrough, exchangeCode, insecure, lastCallback, type Flow } from "./relying-party.js"

let idp: DevIdp

beforeAll(async () => {
  const offline = (id: string) => ({
    client_id: id,
    client_secret: `${id}-secret`,
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
  })
  idp = await startDevIdp({ consent: "auto", clients: [offline("offline-app"), offline("other-app")] })
})

afterEach(() => {
  idp.reset()
})

afterAll(async () => {
  await idp.close()
})

/** Signs alice in with a client that gets refresh tokens; returns its tokens and ways to use them. */
async function signIn(clientId = "offline-app") {
  const flow = await beginFlow(idp, { clientId })
  await clickThrough(flow)
  const result = await exchangeCode(flow, lastCallback(flow), `${clientId}-secret`)
  return { flow, accessToken: result.access_token, refreshToken: String(result.refresh_token) }
}

function auth(clientId: string) {
  return oauth.ClientSecretBasic(`${clientId}-secret`)
}

async function revoke(flow: Flow, token: string, hint?: string, clientId = flow.client.client_id) {
  const response = await oauth.revocationRequest(flow.as, { client_id: clientId }, auth(clientId), token, {
    ...insecure,
    ...(hint === undefined ? {} : { additionalParameters: { token_type_hint: hint } }),
  })
  return response
}

async function refresh(flow: Flow, token: string) {
  return oauth.processRefreshTokenResponse(
    flow.as,
    flow.client,
    await oauth.refreshTokenGrantRequest(flow.as, flow.client, auth(flow.client.client_id), token, insecure),
  )
}

function userinfoStatus(accessToken: string): Promise<number> {
  return fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then((response) => response.status)
}

describe("token revocation (RFC 7009)", () => {
  it("revoking a refresh token makes the next refresh grant fail with invalid_grant", async () => {
    const { flow, refreshToken } = await signIn()
    const response = await revoke(flow, refreshToken, "refresh_token")
    await oauth.processRevocationResponse(response)
    expect(response.status).toBe(200)

    await expect(refresh(flow, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" })
    expect(idp.refreshGrants).toBe(0)
    expect(idp.revocations).toEqual([
      { clientId: "offline-app", token: refreshToken, tokenTypeHint: "refresh_token", revoked: "refresh_token", status: 200 },
    ])
    expect(idp.revokedGrants).toBe(1)
  })

  it("revoking a refresh token ends the access tokens of its grant", async () => {
    const { flow, accessToken, refreshToken } = await signIn()
    expect(await userinfoStatus(accessToken)).toBe(200)
    await oauth.processRevocationResponse(await revoke(flow, refreshToken))
    expect(await userinfoStatus(accessToken)).toBe(401)
  })

  it("revoking an access token ends it, and the grant's other tokens with it", async () => {
    const { flow, accessToken, refreshToken } = await signIn()
    await oauth.processRevocationResponse(await revoke(flow, accessToken, "access_token"))
    expect(await userinfoStatus(accessToken)).toBe(401)
    expect(idp.revocations).toMatchObject([{ clientId: "offline-app", revoked: "access_token", status: 200 }])
    // oidc-provider revokes every token of the grant, though it keeps the grant itself.
    await expect(refresh(flow, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" })
    expect(idp.revokedGrants).toBe(0)
  })

  it("answers 200 for an unknown token, and records that nothing was revoked", async () => {
    const { flow } = await signIn()
    const response = await revoke(flow, "not-a-token")
    expect(response.status).toBe(200)
    expect(idp.revocations).toEqual([{ clientId: "offline-app", token: "not-a-token", tokenTypeHint: undefined, revoked: undefined, status: 200 }])
  })

  it("refuses to let a client revoke another client's token", async () => {
    const { flow, refreshToken } = await signIn()
    const response = await revoke(flow, refreshToken, undefined, "other-app")
    expect(response.status).toBe(400)
    expect(idp.revocations).toMatchObject([{ clientId: "other-app", revoked: undefined, status: 400 }])
    expect(typeof (await refresh(flow, refreshToken)).refresh_token).toBe("string")
  })

  it("refuses a client that does not authenticate", async () => {
    const { flow, refreshToken } = await signIn()
    const response = await oauth.revocationRequest(flow.as, flow.client, oauth.ClientSecretBasic("wrong"), refreshToken, insecure)
    expect(response.status).toBe(401)
    expect(idp.revocations).toMatchObject([{ clientId: "offline-app", revoked: undefined, status: 401 }])
    expect(typeof (await refresh(flow, refreshToken)).refresh_token).toBe("string")
  })

  it("onRevocationResponse: a 503 answer, though the token is revoked all the same", async () => {
    idp.onRevocationResponse(() => ({ status: 503, body: "unavailable", headers: { "content-type": "text/plain" } }))
    const { flow, refreshToken } = await signIn()
    const response = await revoke(flow, refreshToken)
    expect(response.status).toBe(503)
    expect(await response.text()).toBe("unavailable")
    expect(idp.revocations).toMatchObject([{ revoked: "refresh_token", status: 503 }])
    await expect(refresh(flow, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" })
  })

  it("delay: stalls the revocation endpoint past the client's timeout", async () => {
    const { flow, refreshToken } = await signIn()
    idp.delay("revocation", 5_000)
    const request = oauth.revocationRequest(flow.as, flow.client, auth("offline-app"), refreshToken, { ...insecure, signal: AbortSignal.timeout(200) })
    await expect(request).rejects.toThrow(/abort|timeout/iu)
  })
})
