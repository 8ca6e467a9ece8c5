/**
 * Validating an OpenID Connect Back-Channel Logout token, as §2.6 of the specification requires:
 * the signature by a key the provider publishes (read from the key set its ID tokens share, see
 * `key-set.ts`; an unknown `kid` downloads its keys again, at most once per
 * `KEY_REFETCH_INTERVAL_MS` for all its tokens; `alg: none` and symmetric algorithms are
 * refused, and so is any `crit` header, as we understand no JWS extension), `iss`, `aud` naming
 * our client, `iat` fresh, `exp` not passed, a `jti`, the back-channel logout event, no `nonce`,
 * and `sub` and/or `sid`. Remembering `jti`s against replays is the caller's: it needs a store
 * every instance shares.
 *
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 */
import type * as o from "oauth4webapi"
import { fromBase64url } from "../crypto/crypto.js"
import { parseJson } from "../crypto/sealed.js"
import { fetchWithin, withRequestTimeout } from "../outbound/deadline.js"
import { InvalidLogoutToken } from "../errors/flow-errors.js"
import { cachedKeys, claimForcedRefetch, keySetOf, storeKeys, type KeySet } from "./key-set.js"
import type { InternalOAuthProvider } from "./provider.js"
import { authorizationServer, freshServer } from "./server.js"

/** The event a logout token must carry. */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"

/** Seconds a logout token may be old (by its `iat`) and still be acted on. */
export const LOGOUT_TOKEN_MAX_AGE = 5 * 60

/** Seconds a provider's clock may run ahead of ours. */
const CLOCK_SKEW = 30

/** The longest logout token read: a few hundred bytes in practice. */
const MAX_TOKEN_LENGTH = 16 * 1024

/** What a valid logout token says: whose sessions end, and its id, for the replay check. */
export interface LogoutClaims {
  /** The account at the provider whose sessions end. */
  sub?: string
  /** The provider session that ended: only sessions started in it end. */
  sid?: string
  jti: string
  /** Seconds since the epoch: until when the `jti` must be remembered. */
  exp: number
}

/** The Web Crypto parameters of each asymmetric JWS algorithm a provider may sign with. */
const ALGORITHMS: Readonly<Record<string, { import: RsaHashedImportParams | EcKeyImportParams | Algorithm; verify: AlgorithmIdentifier | RsaPssParams | EcdsaParams }>> = {
  RS256: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { import: { name: "RSA-PSS", hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { import: { name: "RSA-PSS", hash: "SHA-384" }, verify: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { import: { name: "RSA-PSS", hash: "SHA-512" }, verify: { name: "RSA-PSS", saltLength: 64 } },
  ES256: { import: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { import: { name: "ECDSA", namedCurve: "P-384" }, verify: { name: "ECDSA", hash: "SHA-384" } },
  ES512: { import: { name: "ECDSA", namedCurve: "P-521" }, verify: { name: "ECDSA", hash: "SHA-512" } },
  EdDSA: { import: { name: "Ed25519" }, verify: { name: "Ed25519" } },
  Ed25519: { import: { name: "Ed25519" }, verify: { name: "Ed25519" } },
}

/** Downloads of a provider's keys under way, so concurrent logout tokens share one. */
const downloads = new WeakMap<KeySet, Promise<readonly JsonWebKey[]>>()

function fail(message: string, cause?: unknown): never {
  throw new InvalidLogoutToken(message, cause === undefined ? undefined : { cause })
}

async function downloadKeys(provider: InternalOAuthProvider, server: o.AuthorizationServer): Promise<readonly JsonWebKey[]> {
  const uri = server.jwks_uri
  if (typeof uri !== "string") fail(`Provider "${provider.id}" publishes no \`jwks_uri\`: its logout tokens cannot be verified.`)
  const url = new URL(uri)
  if (url.protocol !== "https:" && !(provider.allowInsecureRequests && url.protocol === "http:")) fail(`The \`jwks_uri\` of provider "${provider.id}" is not https.`)
  const { status, keys } = await withRequestTimeout(provider.timeout, undefined, async (signal) => {
    const response = await fetchWithin(provider.customFetch, url.href, { headers: { accept: "application/json" }, redirect: "error", signal })
    const body: unknown = response.ok ? await response.json() : undefined
    return { status: response.status, keys: (body as { keys?: unknown } | undefined)?.keys }
  })
  if (!Array.isArray(keys)) fail(`Provider "${provider.id}" answered its \`jwks_uri\` without a key set (HTTP ${String(status)}).`)
  return keys.filter((key): key is JsonWebKey => typeof key === "object" && key !== null)
}

/** Downloads the provider's keys into its key set; `force` starts a new download rather than joining one under way. */
function download(provider: InternalOAuthProvider, set: KeySet, force: boolean): Promise<readonly JsonWebKey[]> {
  const pending = downloads.get(set)
  if (pending !== undefined && !force) return pending
  const keys = authorizationServer(provider)
    .then((server) => downloadKeys(provider, server))
    .then((downloaded) => {
      storeKeys(set, downloaded)
      return downloaded
    })
    .finally(() => {
      if (downloads.get(set) === keys) downloads.delete(set)
    })
  downloads.set(set, keys)
  return keys
}

/** The provider's keys from the key set it shares with ID tokens, downloaded when it holds none young enough. */
async function publishedKeys(provider: InternalOAuthProvider): Promise<{ keys: readonly JsonWebKey[]; fresh: boolean }> {
  const set = keySetOf(provider)
  const cached = cachedKeys(set)
  if (cached !== undefined) return { keys: cached, fresh: false }
  return { keys: await download(provider, set, false), fresh: true }
}

/**
 * The provider's keys downloaded again for an unknown `kid`, unless an unknown key (in any
 * token) forced a download in the last interval: then `undefined`. ID tokens read the new keys
 * too, through a fresh metadata object (see {@link freshServer}).
 */
async function refetchedKeys(provider: InternalOAuthProvider): Promise<readonly JsonWebKey[] | undefined> {
  const set = keySetOf(provider)
  if (!claimForcedRefetch(set)) return undefined
  freshServer(provider, await authorizationServer(provider))
  const refetch = download(provider, set, true)
  set.refetching = refetch.catch(() => undefined)
  try {
    return await refetch
  } finally {
    set.refetching = undefined
  }
}

function candidates(keys: readonly JsonWebKey[], kid: unknown, alg: string): JsonWebKey[] {
  const kty = alg.startsWith("ES") ? "EC" : alg.startsWith("Ed") ? "OKP" : "RSA"
  return keys.filter((key) => {
    const entry = key as JsonWebKey & { kid?: unknown; use?: unknown }
    if (entry.kty !== kty || (entry.use !== undefined && entry.use !== "sig") || (entry.alg !== undefined && entry.alg !== alg)) return false
    return kid === undefined || entry.kid === kid
  })
}

async function verifies(key: JsonWebKey, alg: string, signed: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const params = ALGORITHMS[alg]
  if (params === undefined) return false
  try {
    const { alg: _alg, key_ops: _ops, use: _use, ...material } = key as JsonWebKey & { use?: unknown }
    const imported = await crypto.subtle.importKey("jwk", material, params.import, false, ["verify"])
    return await crypto.subtle.verify(params.verify, imported, signature, signed)
  } catch {
    return false
  }
}

function decodePart(part: string | undefined, what: string): Record<string, unknown> {
  const bytes = part === undefined ? undefined : fromBase64url(part)
  const value = bytes === undefined ? undefined : parseJson(bytes)
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(`The logout token's ${what} is not a JSON object.`)
  return value as Record<string, unknown>
}

/**
 * Checks a logout token a provider posted and answers what it says.
 *
 * @throws {InvalidLogoutToken} naming the first check that failed; nothing may end then.
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.11 (`crit`)
 */
export async function verifyLogoutToken(provider: InternalOAuthProvider, token: string, now = Math.floor(Date.now() / 1000)): Promise<LogoutClaims> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) fail("The logout token is missing or too long.")
  const parts = token.split(".")
  if (parts.length !== 3) fail("The logout token is not a signed JWT (JWS compact serialization).")
  const [head, body, sig] = parts as [string, string, string]
  const header = decodePart(head, "header")
  const claims = decodePart(body, "payload")
  const { alg, kid, typ, crit } = header
  // We implement no JWS extension, so every critical one is one we do not understand.
  if (crit !== undefined) fail(`The logout token's \`crit\` header (${JSON.stringify(crit)}) names extensions this verifier does not understand.`)
  if (typeof alg !== "string" || ALGORITHMS[alg] === undefined) fail(`The logout token's \`alg\` (${JSON.stringify(alg)}) is not an asymmetric signature algorithm.`)
  if (typ !== undefined && (typeof typ !== "string" || !/^(application\/)?logout\+jwt$/i.test(typ))) fail(`The logout token's \`typ\` is ${JSON.stringify(typ)}, not "logout+jwt".`)
  if (kid !== undefined && typeof kid !== "string") fail("The logout token's `kid` is not a string.")
  const signature = fromBase64url(sig)
  if (signature === undefined) fail("The logout token's signature is not base64url.")
  const signed = new TextEncoder().encode(`${head}.${body}`)

  let known: { keys: readonly JsonWebKey[]; fresh: boolean }
  try {
    known = await publishedKeys(provider)
  } catch (cause) {
    if (cause instanceof InvalidLogoutToken) throw cause
    fail(`The keys of provider "${provider.id}" could not be downloaded.`, cause)
  }
  let keys = candidates(known.keys, kid, alg)
  // A key we have not seen: the provider may have rotated its keys since we downloaded them.
  if (keys.length === 0 && !known.fresh) keys = candidates((await refetchedKeys(provider).catch(() => undefined)) ?? [], kid, alg)
  let valid = false
  for (const key of keys) if (!valid) valid = await verifies(key, alg, signed, signature)
  if (!valid) fail(`The logout token's signature does not verify with a key provider "${provider.id}" publishes.`)

  const server = await authorizationServer(provider)
  if (claims.iss !== server.issuer) fail(`The logout token's \`iss\` is not provider "${provider.id}"'s issuer.`)
  const audiences = Array.isArray(claims.aud) ? (claims.aud as unknown[]) : [claims.aud]
  if (!audiences.includes(provider.clientId)) fail("The logout token's `aud` does not name this client.")
  const { iat, exp, jti, events, sub, sid } = claims
  if (typeof iat !== "number" || !Number.isFinite(iat)) fail("The logout token has no `iat`.")
  if (iat > now + CLOCK_SKEW) fail("The logout token's `iat` is in the future.")
  if (iat < now - LOGOUT_TOKEN_MAX_AGE) fail(`The logout token is older than ${String(LOGOUT_TOKEN_MAX_AGE)} seconds (its \`iat\`).`)
  if (typeof exp !== "number" || !Number.isFinite(exp)) fail("The logout token has no `exp`.")
  if (exp < now - CLOCK_SKEW) fail("The logout token has expired (its `exp`).")
  if (typeof jti !== "string" || jti === "" || jti.length > 256) fail("The logout token has no usable `jti`.")
  const event = typeof events === "object" && events !== null ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT] : undefined
  if (typeof event !== "object" || event === null || Array.isArray(event)) fail("The logout token does not carry the back-channel logout event.")
  if ("nonce" in claims) fail("The logout token carries a `nonce`, which a logout token never does (it would be an ID token).")
  const subject = typeof sub === "string" && sub !== "" ? sub : undefined
  const session = typeof sid === "string" && sid !== "" ? sid : undefined
  if (subject === undefined && session === undefined) fail("The logout token names neither a `sub` nor a `sid`.")
  const out: LogoutClaims = { jti, exp: Math.max(exp, iat + LOGOUT_TOKEN_MAX_AGE) }
  if (subject !== undefined) out.sub = subject
  if (session !== undefined) out.sid = session
  return out
}
