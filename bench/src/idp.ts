/**
 * A fast OpenID Provider for the benchmark: discovery, JWKS, an authorization endpoint that
 * redirects back at once, a token endpoint issuing RS256 ID tokens, and userinfo. It does the
 * same work for both implementations, so it only adds a constant to each sign-in.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface BenchIdp {
  issuer: string
  close(): Promise<void>
}

const b64 = (value: Buffer | string): string => Buffer.from(value).toString("base64url")

export async function startBenchIdp(client: { id: string; secret: string }): Promise<BenchIdp> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "bench", alg: "RS256", use: "sig" }
  const codes = new Map<string, { nonce: string | null; challenge: string | null; redirectUri: string }>()
  let issuer = ""

  // RFC 6749 section 2.3.1: the id and secret are form-encoded before the Basic encoding.
  const authenticated = (header: string | undefined): boolean => {
    const [id = "", secret = ""] = Buffer.from((header ?? "").replace(/^Basic /, ""), "base64").toString().split(":")
    const decode = (value: string): string => decodeURIComponent(value.replace(/\+/g, " "))
    return decode(id) === client.id && decode(secret) === client.secret
  }

  const sign = (claims: Record<string, unknown>): string => {
    const input = `${b64(JSON.stringify({ alg: "RS256", kid: "bench", typ: "JWT" }))}.${b64(JSON.stringify(claims))}`
    return `${input}.${b64(createSign("RSA-SHA256").update(input).sign(privateKey))}`
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", issuer)
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    if (url.pathname === "/.well-known/openid-configuration") {
      json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
      })
      return
    }
    if (url.pathname === "/jwks") {
      json(200, { keys: [jwk] })
      return
    }
    if (url.pathname === "/authorize") {
      const code = randomBytes(16).toString("base64url")
      const redirectUri = url.searchParams.get("redirect_uri") ?? ""
      codes.set(code, { nonce: url.searchParams.get("nonce"), challenge: url.searchParams.get("code_challenge"), redirectUri })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      const state = url.searchParams.get("state")
      if (state !== null) back.searchParams.set("state", state)
      response.writeHead(302, { location: back.href })
      response.end()
      return
    }
    if (url.pathname === "/token") {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        const form = new URLSearchParams(body)
        const grant = codes.get(form.get("code") ?? "")
        codes.delete(form.get("code") ?? "")
        const verifier = form.get("code_verifier") ?? ""
        const pkceOk = grant?.challenge == null || b64(createHash("sha256").update(verifier).digest()) === grant.challenge
        if (grant === undefined || !authenticated(request.headers.authorization) || !pkceOk) {
          json(400, { error: "invalid_grant" })
          return
        }
        const now = Math.floor(Date.now() / 1000)
        const claims: Record<string, unknown> = { iss: issuer, sub: "user-1", aud: client.id, iat: now, exp: now + 300, name: "Bench User", email: "bench@example.com" }
        if (grant.nonce !== null) claims.nonce = grant.nonce
        json(200, { access_token: randomBytes(16).toString("base64url"), token_type: "Bearer", expires_in: 3600, id_token: sign(claims) })
      })
      return
    }
    if (url.pathname === "/userinfo") json(200, { sub: "user-1", name: "Bench User", email: "bench@example.com" })
    else json(404, { error: "not_found" })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      }),
  }
}
