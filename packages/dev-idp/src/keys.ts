import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose"

/** A JWS algorithm the dev IdP can hold a signing key for. */
export type SigningAlg = "RS256" | "ES256"

/** One generated signing key: the private JWK for oidc-provider, the public one to publish. */
export interface SigningKey {
  readonly alg: SigningAlg
  readonly kid: string
  readonly privateKey: CryptoKey
  readonly privateJwk: JWK
  readonly publicJwk: JWK
}

/**
 * Generates a fresh signing key pair, named by its RFC 7638 thumbprint.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7638 JWK Thumbprint
 */
export async function generateSigningKey(alg: SigningAlg): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const publicParts = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(publicParts)
  const labels = { kid, alg, use: "sig" }
  return {
    alg,
    kid,
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), ...labels },
    publicJwk: { ...publicParts, ...labels },
  }
}

/** The inputs of {@link signWith}: which key, which header. */
export interface SignRequest {
  alg: SigningAlg | "none"
  key: SigningKey | undefined
  /** `undefined` keeps the key's own kid, `null` leaves the header without one. */
  kid: string | null | undefined
  typ: string | undefined
  /** Extension header parameters, each listed in `crit`. */
  critical?: Readonly<Record<string, unknown>> | undefined
}

/**
 * Signs a claims set as a compact JWS; `alg: "none"` produces an unsecured JWT (empty signature).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-6 Unsecured JWTs
 */
export async function signWith(claims: Record<string, unknown>, request: SignRequest): Promise<string> {
  const kid = request.kid === undefined ? request.key?.kid : (request.kid ?? undefined)
  const header = {
    ...request.critical,
    alg: request.alg,
    ...(kid === undefined ? {} : { kid }),
    ...(request.typ === undefined ? {} : { typ: request.typ }),
    ...(request.critical === undefined ? {} : { crit: Object.keys(request.critical) }),
  }
  if (request.alg === "none") {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
    return `${encode(header)}.${encode(claims)}.`
  }
  if (request.key === undefined) {
    throw new Error(`signJwt: no ${request.alg} key is available to sign with`)
  }
  // jose refuses to sign with a `crit` it was not told it may write.
  const crit = Object.fromEntries(Object.keys(request.critical ?? {}).map((name) => [name, true]))
  return new SignJWT(claims).setProtectedHeader(header).sign(request.key.privateKey, { crit })
}
