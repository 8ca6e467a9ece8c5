import * as o from "oauth4webapi"
import { describe, expect, it } from "vitest"
import { OAuthCallbackError } from "../../src/errors/errors.js"
import { conformTokenResponse } from "../../src/providers/index.js"

const server: o.AuthorizationServer = { issuer: "https://as.example", token_endpoint: "https://as.example/token" }
const client: o.Client = { client_id: "client" }

/** What core does next with the (conformed) answer: oauth4webapi's validation of a token response. */
async function validate(response: Response): Promise<o.TokenEndpointResponse> {
  return o.processAuthorizationCodeResponse(server, client, response, { requireIdToken: false })
}

/** The answer core validates: the rewritten one, or the original when the rewrite gave none back. */
async function conformed(conform: (response: Response) => Promise<Response | undefined>, response: Response): Promise<Response> {
  return (await conform(response.clone())) ?? response
}

describe("conformTokenResponse", () => {
  it("adds the missing token_type, keeps every other field, and the result validates", async () => {
    const conform = conformTokenResponse({ tokenType: "bearer" })
    const response = await conformed(conform, Response.json({ access_token: "at", user_id: 7 }, { status: 200 }))
    expect(await response.clone().json()).toEqual({ token_type: "bearer", access_token: "at", user_id: 7 })
    expect(await validate(response)).toMatchObject({ access_token: "at", token_type: "bearer" })
  })

  it("never overrides a token_type the provider sent, so core still refuses a non-bearer token", async () => {
    const conform = conformTokenResponse({ tokenType: "bearer" })
    expect(await conform(Response.json({ access_token: "at", token_type: "mac" }))).toBeUndefined()
  })

  it("hands a standard answer back unchanged", async () => {
    const conform = conformTokenResponse({ tokenType: "bearer", joinScope: true, drop: ["refresh_token"] })
    expect(await conform(Response.json({ access_token: "at", token_type: "bearer", scope: "a b", refresh_token: "rt" }))).toBeUndefined()
  })

  it("unwraps a token object nested in an array, in an object, or reads the flat shape", async () => {
    const conform = conformTokenResponse({ nestedIn: "data", tokenType: "bearer" })
    const expected = { access_token: "at", user_id: "1", token_type: "bearer" }
    expect(await (await conform(Response.json({ data: [{ access_token: "at", user_id: "1" }] })))?.json()).toEqual(expected)
    expect(await (await conform(Response.json({ data: { access_token: "at", user_id: "1" } })))?.json()).toEqual(expected)
    expect(await (await conform(Response.json({ access_token: "at", user_id: "1" })))?.json()).toEqual(expected)
  })

  it("leaves the answer alone when the unwrapped value is not an object", async () => {
    const conform = conformTokenResponse({ nestedIn: "data", tokenType: "bearer" })
    expect(await conform(Response.json({ data: [] }))).toBeUndefined()
    expect(await conform(Response.json({ data: ["at"] }))).toBeUndefined()
    expect(await conform(Response.json({ data: null, access_token: "at" }))).toBeUndefined()
  })

  it("joins a scope array and turns a millisecond expires_at into expires_in", async () => {
    const conform = conformTokenResponse({ joinScope: true, expiresAtMilliseconds: true })
    const response = await conform(Response.json({ access_token: "at", token_type: "Bearer", scope: ["a", "b"], expires_at: Date.now() + 3_600_000 }))
    const body = (await response?.json()) as Record<string, unknown>
    expect(body.scope).toBe("a b")
    expect(body.expires_at).toBeUndefined()
    expect(body.expires_in).toBeGreaterThan(3590)
    expect(body.expires_in).toBeLessThanOrEqual(3600)
  })

  it("gives a past expires_at an expires_in of 0, never a negative one", async () => {
    const response = await conformTokenResponse({ expiresAtMilliseconds: true })(Response.json({ access_token: "at", expires_at: 1 }))
    expect(await response?.json()).toEqual({ access_token: "at", expires_in: 0 })
  })

  it("drops the listed fields only when their value is not the standard type", async () => {
    const conform = conformTokenResponse({ drop: ["expires_in", "scope", "refresh_token"] })
    const response = await conform(Response.json({ access_token: "at", token_type: "bearer", expires_in: 0, scope: null, refresh_token: null }))
    expect(await response?.json()).toEqual({ access_token: "at", token_type: "bearer" })
    const kept = { access_token: "at", token_type: "bearer", expires_in: 60, scope: "s", refresh_token: "rt" }
    expect(await conform(Response.json(kept))).toBeUndefined()
  })

  it("keeps the status of the answer it rewrites", async () => {
    const response = await conformTokenResponse({ tokenType: "bearer" })(Response.json({ access_token: "at" }, { status: 201 }))
    expect(response?.status).toBe(201)
  })

  describe("hostile answers", () => {
    const conform = conformTokenResponse({ tokenType: "bearer", joinScope: true, expiresAtMilliseconds: true, drop: ["expires_in", "scope", "refresh_token"] })

    it("leaves an error answer to core, which reports the provider's error", async () => {
      const raw = Response.json({ error: "invalid_grant" }, { status: 400 })
      expect(await conform(raw.clone())).toBeUndefined()
      await expect(validate(raw)).rejects.toBeInstanceOf(o.ResponseBodyError)
    })

    it("does not throw on a body that is not JSON, and core refuses it without quoting the body", async () => {
      const raw = new Response("access_token=secret-at&token_type=bearer", { headers: { "content-type": "application/json" } })
      expect(await conform(raw.clone())).toBeUndefined()
      const refusal = await validate(raw).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(Error)
      expect((refusal as Error).message).not.toContain("secret-at")
    })

    it("does not throw on an empty body", async () => {
      expect(await conform(new Response(null))).toBeUndefined()
      expect(await conform(new Response(""))).toBeUndefined()
    })

    it("leaves a JSON array or scalar to core, which refuses it", async () => {
      for (const body of [[{ access_token: "at" }], "at", 42, null, true]) {
        const raw = Response.json(body)
        expect(await conform(raw.clone()), JSON.stringify(body)).toBeUndefined()
        await expect(validate(raw), JSON.stringify(body)).rejects.toThrow()
      }
    })

    it("invents no access_token: an answer without one is still refused by core", async () => {
      const response = await conformed(conform, Response.json({ scope: ["a"], refresh_token: null }))
      expect(await response.clone().json()).toEqual({ token_type: "bearer", scope: "a" })
      await expect(validate(response)).rejects.toThrow(/access_token/)
    })

    it("refuses a body over 1 MiB without reading it all, and without quoting it", async () => {
      let pulled = 0
      const chunk = new TextEncoder().encode(`{"access_token":"${"s".repeat(64 * 1024)}`)
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1
          controller.enqueue(chunk)
        },
      })
      const refusal = await conform(new Response(endless)).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(OAuthCallbackError)
      expect((refusal as Error).message).not.toContain("sss")
      expect(pulled).toBeLessThan(40)
    })

    it("refuses a declared Content-Length over 1 MiB before reading", async () => {
      const raw = new Response("{}", { headers: { "content-length": String(2 * 1024 * 1024) } })
      await expect(conform(raw)).rejects.toBeInstanceOf(OAuthCallbackError)
    })

    it("turns only a JSON array scope into a string, and ignores a non-numeric expires_at", async () => {
      const response = await conform(Response.json({ access_token: "at", scope: { a: 1 }, expires_at: "tomorrow" }))
      expect(await response?.json()).toEqual({ access_token: "at", token_type: "bearer", expires_at: "tomorrow" })
    })

    it("treats a __proto__ key as data, not as the prototype", async () => {
      const response = await conform(new Response('{"access_token":"at","__proto__":{"token_type":"mac"}}'))
      const body = (await response?.json()) as Record<string, unknown>
      expect(body.token_type).toBe("bearer")
      expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
    })
  })
})
