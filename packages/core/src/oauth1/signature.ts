/**
 * Signing a request the OAuth 1.0a way: the HMAC-SHA1 signature method, sent in the
 * `Authorization: OAuth ...` header. WebCrypto only, so it runs on every runtime core runs on.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3 Authenticated Requests
 */

/** The client credentials and, once known, the token credentials a request is signed with. */
export interface SigningCredentials {
  consumerKey: string
  consumerSecret: string
  token?: string
  tokenSecret?: string
}

/**
 * Percent-encodes a value as RFC 5849 requires: every byte of its UTF-8 encoding except the
 * unreserved characters (`A-Z a-z 0-9 - . _ ~`), in upper-case hex.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3.6
 */
export function percentEncode(value: string): string {
  // encodeURIComponent also leaves `!'()*` alone, which the RFC wants encoded.
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * The base string URI: scheme and host in lower case, the port only when not the scheme's
 * default, the path, and no query or fragment.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.2
 */
export function baseStringUri(url: URL): string {
  // URL already lower-cases scheme and host and drops a default port.
  return `${url.protocol}//${url.host}${url.pathname}`
}

/**
 * The signature base string of a request: its method, base string URI and normalized
 * parameters (query, form body and `oauth_*` protocol parameters, `oauth_signature` excluded).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1
 */
export function signatureBaseString(method: string, url: URL, parameters: Iterable<readonly [string, string]>): string {
  const pairs = [...url.searchParams, ...parameters]
    .filter(([name]) => name !== "oauth_signature")
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    // Sorted by encoded name, then encoded value, in byte order (section 3.4.1.3.2).
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
  const normalized = pairs.map(([name, value]) => `${name}=${value}`).join("&")
  return [method.toUpperCase(), percentEncode(baseStringUri(url)), percentEncode(normalized)].join("&")
}

function base64(bytes: ArrayBuffer): string {
  let binary = ""
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * The HMAC-SHA1 signature of a base string, keyed with the client secret and token secret.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3.4.2
 */
export async function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = ""): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  )
  return base64(await crypto.subtle.sign("HMAC", key, encoder.encode(baseString)))
}

/** A fresh nonce: 32 random bytes as hex. */
function nonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/**
 * The `Authorization` header of a signed request. `protocol` adds `oauth_*` parameters
 * (`oauth_callback`, `oauth_verifier`); `body` is the form body the request sends, which the
 * signature covers.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5849#section-3.5.1
 */
export async function authorizationHeader(
  method: string,
  url: URL,
  credentials: SigningCredentials,
  protocol: Readonly<Record<string, string>> = {},
  body?: URLSearchParams,
  now: { timestamp: string; nonce: string } = { timestamp: String(Math.floor(Date.now() / 1000)), nonce: nonce() },
): Promise<string> {
  const oauth: Record<string, string> = {
    ...protocol,
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: now.nonce,
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: now.timestamp,
    oauth_version: "1.0",
  }
  if (credentials.token !== undefined) oauth.oauth_token = credentials.token
  const base = signatureBaseString(method, url, [...Object.entries(oauth), ...(body ?? [])])
  oauth.oauth_signature = await hmacSha1Signature(base, credentials.consumerSecret, credentials.tokenSecret)
  return `OAuth ${Object.entries(oauth)
    .map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`)
    .join(", ")}`
}
