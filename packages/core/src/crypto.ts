/**
 * The cryptography of sessions and checks: key derivation (cached per secret and purpose),
 * compact JWE with `dir` + `A256GCM`, HMAC, randomness, base64url; on WebCrypto, with Node's
 * own crypto as a faster engine where the runtime has it.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const DECODE = new Int16Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

function char(index: number): string {
  return ALPHABET.charAt(index)
}

/** Encodes bytes as unpadded base64url (RFC 4648 section 5). */
export function base64url(bytes: Uint8Array): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out += char(n >> 18) + char((n >> 12) & 63) + char((n >> 6) & 63) + char(n & 63)
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = (bytes[i] as number) << 16
    out += char(n >> 18) + char((n >> 12) & 63)
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8)
    out += char(n >> 18) + char((n >> 12) & 63) + char((n >> 6) & 63)
  }
  return out
}

/** Decodes unpadded base64url; returns `undefined` for anything that is not. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const length = text.length
  if (length % 4 === 1) return undefined
  const out = new Uint8Array((length * 3) >> 2)
  let bits = 0
  let value = 0
  let j = 0
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    const digit = code < 128 ? (DECODE[code] as number) : -1
    if (digit < 0) return undefined
    value = (value << 6) | digit
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >> bits) & 0xff
    }
  }
  return out
}

/** `length` bytes from the platform's CSPRNG. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length))
}

/** A random base64url string carrying `bytes` bytes of entropy. */
export function randomString(bytes = 32): string {
  return base64url(randomBytes(bytes))
}

/** What a derived key is for; each purpose gets its own key from the same secret. */
export type KeyPurpose = "jwe" | "hmac"

/** A derived 256-bit key, as WebCrypto and (where available) Node's crypto use it. */
export interface SecretKey {
  readonly web: CryptoKey
  readonly raw: Uint8Array<ArrayBuffer>
  /** Node's KeyObject for the same bytes, made on first use by the Node engine. */
  node?: unknown
}

/**
 * The symmetric primitives the sessions and checks need. Two engines implement them: WebCrypto
 * everywhere, and Node's own crypto where it exists, which answers synchronously instead of
 * hopping to a thread pool (several times faster per session read).
 */
export interface CryptoEngine {
  readonly name: "webcrypto" | "node"
  /** AES-256-GCM with a 16-byte tag, kept apart as a compact JWE carries them. */
  encrypt(key: SecretKey, iv: Uint8Array<ArrayBuffer>, aad: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>): Sealed | Promise<Sealed>
  /** Opens what {@link CryptoEngine.encrypt} sealed; `undefined` when it does not authenticate. */
  decrypt(key: SecretKey, iv: Uint8Array<ArrayBuffer>, aad: Uint8Array<ArrayBuffer>, sealed: Sealed): Uint8Array | undefined | Promise<Uint8Array | undefined>
  /** HMAC-SHA-256. */
  sign(key: SecretKey, data: Uint8Array<ArrayBuffer>): Uint8Array | Promise<Uint8Array>
}

/** AES-GCM output: the ciphertext and its 16-byte authentication tag. */
export interface Sealed {
  ciphertext: Uint8Array
  tag: Uint8Array
}

/** The WebCrypto engine: standard, available in every runtime. It takes and gives the tag appended to the ciphertext. */
export const webEngine: CryptoEngine = {
  name: "webcrypto",
  async encrypt(key, iv, aad, plaintext) {
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad, tagLength: 128 }, key.web, plaintext))
    return { ciphertext: sealed.subarray(0, sealed.length - 16), tag: sealed.subarray(sealed.length - 16) }
  },
  async decrypt(key, iv, aad, { ciphertext, tag }) {
    try {
      return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: aad, tagLength: 128 }, key.web, concat(ciphertext, tag)))
    } catch {
      return undefined
    }
  },
  async sign(key, data) {
    return new Uint8Array(await crypto.subtle.sign("HMAC", key.web, data))
  },
}

interface NodeCipher {
  setAAD(aad: Uint8Array): void
  setAuthTag(tag: Uint8Array): void
  getAuthTag(): Uint8Array
  update(data: Uint8Array): Uint8Array
  final(): Uint8Array
}

interface NodeCrypto {
  createSecretKey(key: Uint8Array): unknown
  createCipheriv(algorithm: string, key: unknown, iv: Uint8Array, options: { authTagLength: number }): NodeCipher
  createDecipheriv(algorithm: string, key: unknown, iv: Uint8Array, options: { authTagLength: number }): NodeCipher
  createHmac(algorithm: string, key: unknown): { update(data: Uint8Array): { digest(): Uint8Array } }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** `head` then `tail`, copied only when the tail has bytes (GCM's `final()` gives none). */
function joined(head: Uint8Array, tail: Uint8Array): Uint8Array {
  return tail.length === 0 ? head : concat(head, tail)
}

/** The Node engine, over the given `node:crypto` module. */
export function nodeEngine(node: NodeCrypto): CryptoEngine {
  const keyObject = (key: SecretKey): unknown => (key.node ??= node.createSecretKey(key.raw))
  return {
    name: "node",
    encrypt(key, iv, aad, plaintext) {
      const cipher = node.createCipheriv("aes-256-gcm", keyObject(key), iv, { authTagLength: 16 })
      cipher.setAAD(aad)
      const ciphertext = joined(cipher.update(plaintext), cipher.final())
      return { ciphertext, tag: cipher.getAuthTag() }
    },
    decrypt(key, iv, aad, { ciphertext, tag }) {
      if (tag.length !== 16) return undefined
      const decipher = node.createDecipheriv("aes-256-gcm", keyObject(key), iv, { authTagLength: 16 })
      decipher.setAAD(aad)
      decipher.setAuthTag(tag)
      try {
        return joined(decipher.update(ciphertext), decipher.final())
      } catch {
        return undefined
      }
    },
    sign(key, data) {
      return node.createHmac("sha256", keyObject(key)).update(data).digest()
    },
  }
}

function detectNodeCrypto(): NodeCrypto | undefined {
  // getBuiltinModule needs no import statement, so bundles for other runtimes stay clean.
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    const module = process?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined
    return typeof module?.createDecipheriv === "function" ? (module as NodeCrypto) : undefined
  } catch {
    return undefined
  }
}

const detected = detectNodeCrypto()

/** The engine in use: Node's crypto when the runtime has it, WebCrypto otherwise. */
export const engine: CryptoEngine = detected === undefined ? webEngine : nodeEngine(detected)

const keyCache = new Map<string, Promise<SecretKey>>()

/**
 * Derives (once per secret, salt and purpose) a 256-bit key with HKDF-SHA-256.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 */
export function deriveKey(secret: string, salt: string, purpose: KeyPurpose): Promise<SecretKey> {
  const id = `${purpose}\u0000${salt}\u0000${secret}`
  let key = keyCache.get(id)
  if (key === undefined) {
    key = hkdf(secret, salt, purpose)
    // A failed derivation must not poison the cache for later requests.
    key.catch(() => keyCache.delete(id))
    keyCache.set(id, key)
  }
  return key
}

const keyListCache = new WeakMap<readonly string[], Map<string, Promise<SecretKey[]>>>()

/**
 * The keys of every secret (the first seals, all open) for one salt and purpose, cached per
 * secrets list so the hot path does no derivation and no allocation.
 */
export function deriveKeys(secrets: readonly string[], salt: string, purpose: KeyPurpose): Promise<SecretKey[]> {
  let bySalt = keyListCache.get(secrets)
  if (bySalt === undefined) {
    bySalt = new Map()
    keyListCache.set(secrets, bySalt)
  }
  const id = `${purpose}\u0000${salt}`
  let keys = bySalt.get(id)
  if (keys === undefined) {
    keys = Promise.all(secrets.map((secret) => deriveKey(secret, salt, purpose)))
    const cached = bySalt
    keys.catch(() => cached.delete(id))
    bySalt.set(id, keys)
  }
  return keys
}

async function hkdf(secret: string, salt: string, purpose: KeyPurpose): Promise<SecretKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const params = { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(`@auth/core ${purpose} key`) }
  const raw = new Uint8Array(await crypto.subtle.deriveBits(params, material, 256))
  const web =
    purpose === "jwe"
      ? await crypto.subtle.importKey("raw", raw, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"])
      : await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign", "verify"])
  return { web, raw }
}

const JWE_HEADER = base64url(encoder.encode(JSON.stringify({ alg: "dir", enc: "A256GCM" })))
const JWE_AAD = encoder.encode(JWE_HEADER)

/**
 * Seals a JSON value as a compact JWE (`alg: dir`, `enc: A256GCM`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1 JWE Compact Serialization
 */
export async function sealJwe(payload: unknown, key: SecretKey, using: CryptoEngine = engine): Promise<string> {
  const iv = randomBytes(12)
  const { ciphertext, tag } = await using.encrypt(key, iv, JWE_AAD, encoder.encode(JSON.stringify(payload)))
  return `${JWE_HEADER}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(tag)}`
}

/**
 * Opens a compact JWE sealed by {@link sealJwe} with any of `keys`; `undefined` when it is
 * malformed, tampered with, or sealed with another key.
 */
export async function openJwe(token: string, keys: readonly SecretKey[], using: CryptoEngine = engine): Promise<unknown> {
  const parts = token.split(".")
  if (parts.length !== 5 || parts[0] !== JWE_HEADER || parts[1] !== "") return undefined
  const iv = fromBase64url(parts[2] as string)
  const ciphertext = fromBase64url(parts[3] as string)
  const tag = fromBase64url(parts[4] as string)
  if (iv?.length !== 12 || ciphertext === undefined || tag?.length !== 16) return undefined
  for (const key of keys) {
    const plain = await using.decrypt(key, iv, JWE_AAD, { ciphertext, tag })
    if (plain === undefined) continue
    try {
      return JSON.parse(decoder.decode(plain)) as unknown
    } catch {
      return undefined
    }
  }
  return undefined
}

/** HMAC-SHA-256 of `value`, base64url. */
export async function hmac(value: string, key: SecretKey, using: CryptoEngine = engine): Promise<string> {
  return base64url(await using.sign(key, encoder.encode(value)))
}

/** Checks an HMAC from {@link hmac} in constant time against any of `keys`. */
export async function verifyHmac(value: string, mac: string, keys: readonly SecretKey[], using: CryptoEngine = engine): Promise<boolean> {
  const signature = fromBase64url(mac)
  if (signature?.length !== 32) return false
  const data = encoder.encode(value)
  for (const key of keys) {
    const expected = await using.sign(key, data)
    let diff = 0
    for (let i = 0; i < 32; i++) diff |= (expected[i] as number) ^ (signature[i] as number)
    if (diff === 0) return true
  }
  return false
}
