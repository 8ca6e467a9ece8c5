/**
 * The `crypto/` room: the cryptography of sessions and checks (this module, its engines `crypto-
 * engine.ts` and `crypto-web.ts`, and `sealed.ts` for the values a browser hands back), the rules
 * a `secret` must meet (`secret-strength.ts`) and the one bounded cache every module-level cache
 * uses (`caches.ts`). A leaf room: it imports no other
 * folder.
 *
 * The cryptography of sessions and checks: key derivation (cached per secret and purpose, bounded),
 * compact JWE with `dir` and `A256GCM` or `A256CBC-HS512`, HMAC, randomness, base64url; on
 * Node's own crypto where the runtime has it, else on WebCrypto (`./crypto-web.ts`, loaded then).
 */
import { boundedCache } from "./caches.js"
import { aadBits, concat, sameBytes, type CbcHmacKey, type CryptoEngine, type Sealed, type SecretKey } from "./crypto-engine.js"

export type { CbcHmacKey, CryptoEngine, Sealed, SecretKey } from "./crypto-engine.js"

const encoder = new TextEncoder()

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

/** Makes a {@link CbcHmacKey} of 64 raw bytes. */
export async function importCbcHmacKey(raw: Uint8Array<ArrayBuffer>): Promise<CbcHmacKey> {
  const [mac, enc] = await Promise.all([
    crypto.subtle.importKey("raw", raw.subarray(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
    crypto.subtle.importKey("raw", raw.subarray(32), "AES-CBC", false, ["encrypt", "decrypt"]),
  ])
  return { raw, web: { mac, enc } }
}

/** Makes an AES-256-GCM {@link SecretKey} of 32 raw bytes. */
export async function importGcmKey(raw: Uint8Array<ArrayBuffer>): Promise<SecretKey> {
  return { raw, web: await crypto.subtle.importKey("raw", raw, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]) }
}

interface NodeCipher {
  setAAD(aad: Uint8Array): void
  setAuthTag(tag: Uint8Array): void
  getAuthTag(): Uint8Array
  update(data: Uint8Array): Uint8Array
  final(): Uint8Array
}

interface NodeHmac {
  update(data: Uint8Array): NodeHmac
  digest(): Uint8Array
}

interface NodeCrypto {
  createSecretKey(key: Uint8Array): unknown
  createCipheriv(algorithm: string, key: unknown, iv: Uint8Array, options?: { authTagLength: number }): NodeCipher
  createDecipheriv(algorithm: string, key: unknown, iv: Uint8Array, options?: { authTagLength: number }): NodeCipher
  createHmac(algorithm: string, key: unknown): NodeHmac
}

/** `head` then `tail`, copied only when the tail has bytes (GCM's `final()` gives none). */
function joined(head: Uint8Array, tail: Uint8Array): Uint8Array {
  return tail.length === 0 ? head : concat(head, tail)
}

/** The Node engine, over the given `node:crypto` module. */
export function nodeEngine(node: NodeCrypto): CryptoEngine {
  const keyObject = (key: SecretKey): unknown => (key.node ??= node.createSecretKey(key.raw))
  const keyObjects = (key: CbcHmacKey): { mac: unknown; enc: unknown } =>
    (key.node ??= { mac: node.createSecretKey(key.raw.subarray(0, 32)), enc: node.createSecretKey(key.raw.subarray(32)) })
  const cbcTag = (mac: unknown, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array =>
    node.createHmac("sha512", mac).update(aad).update(iv).update(ciphertext).update(aadBits(aad)).digest()
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
    encryptCbcHmac(key, iv, aad, plaintext) {
      const { mac, enc } = keyObjects(key)
      const cipher = node.createCipheriv("aes-256-cbc", enc, iv)
      const ciphertext = joined(cipher.update(plaintext), cipher.final())
      return { ciphertext, tag: cbcTag(mac, aad, iv, ciphertext).subarray(0, 32) }
    },
    decryptCbcHmac(key, iv, aad, { ciphertext, tag }) {
      const { mac, enc } = keyObjects(key)
      if (!sameBytes(cbcTag(mac, aad, iv, ciphertext), tag, 32)) return undefined
      const decipher = node.createDecipheriv("aes-256-cbc", enc, iv)
      try {
        return joined(decipher.update(ciphertext), decipher.final())
      } catch {
        return undefined
      }
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

/**
 * The WebCrypto engine, fetched on its first use: its methods are asynchronous anyway, and a
 * runtime with Node's crypto never loads it.
 */
function lazyWebEngine(): CryptoEngine {
  let loaded: Promise<CryptoEngine> | undefined
  const web = (): Promise<CryptoEngine> => (loaded ??= import("./crypto-web.js").then((module) => module.webEngine))
  return {
    name: "webcrypto",
    encrypt: async (...args) => (await web()).encrypt(...args),
    decrypt: async (...args) => (await web()).decrypt(...args),
    sign: async (...args) => (await web()).sign(...args),
    encryptCbcHmac: async (...args) => (await web()).encryptCbcHmac(...args),
    decryptCbcHmac: async (...args) => (await web()).decryptCbcHmac(...args),
  }
}

/** The engine in use: Node's crypto when the runtime has it, WebCrypto otherwise. */
export const engine: CryptoEngine = detected === undefined ? lazyWebEngine() : nodeEngine(detected)

/** How many derived keys (per secret, salt and purpose) and values (per secrets list and id) are kept. */
const DERIVED_ENTRIES = 1024

const keyCache = boundedCache<string, Promise<SecretKey>>("keys per secret", DERIVED_ENTRIES)

/**
 * Derives (once per secret, salt and purpose, while recently used) a 256-bit key with HKDF-SHA-256.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 */
export function deriveKey(secret: string, salt: string, purpose: KeyPurpose): Promise<SecretKey> {
  const id = `${purpose}\u0000${salt}\u0000${secret}`
  let key = keyCache.get(id)
  if (key === undefined) {
    key = hkdf(secret, salt, purpose)
    // A failed derivation must not poison the cache for later requests.
    key.catch(() => {
      keyCache.delete(id)
    })
    keyCache.set(id, key)
  }
  return key
}

/**
 * Whether `value` (a secret or a list of them, as configured) names exactly the secrets of `list`,
 * in order: a few comparisons, cheap enough to make on every request.
 */
export function sameSecrets(value: unknown, list: readonly string[]): boolean {
  if (typeof value === "string") return list.length === 1 && list[0] === value
  if (!Array.isArray(value) || value.length !== list.length) return false
  for (let i = 0; i < list.length; i++) if (value[i] !== list[i]) return false
  return true
}

/** A secrets list as the caches know it: the prefix of its cache keys, and its secrets when that was given. */
interface KnownList {
  prefix: string
  secrets: readonly string[]
}

const knownLists = new WeakMap<readonly string[], KnownList>()
let listCount = 0

/**
 * The prefix of the cache keys of `secrets`: the same for the same array while its secrets stay
 * the same, a new one once they were edited in place, so no key outlives the secret it came from.
 */
function listPrefix(secrets: readonly string[]): string {
  let known = knownLists.get(secrets)
  if (known === undefined || !sameSecrets(secrets, known.secrets)) {
    known = { prefix: `${String(listCount++)}\u0000`, secrets: [...secrets] }
    knownLists.set(secrets, known)
  }
  return known.prefix
}

const perSecretsCache = boundedCache<string, Promise<unknown>>("keys per list", DERIVED_ENTRIES)

/**
 * Whatever `make` derives from a list of secrets, once per list and `id` while recently used, so
 * the hot path does no derivation; a failed derivation is forgotten so a later request retries.
 * The cache is bounded: an `id` holding a salt a request chose (a preview origin) cannot grow it.
 */
export function cachedPerSecrets<T>(secrets: readonly string[], id: string, make: () => Promise<T>): Promise<T> {
  const key = listPrefix(secrets) + id
  let value = perSecretsCache.get(key) as Promise<T> | undefined
  if (value === undefined) {
    value = make()
    value.catch(() => {
      perSecretsCache.delete(key)
    })
    perSecretsCache.set(key, value)
  }
  return value
}

/**
 * The keys of every secret (the first seals, all open) for one salt and purpose, cached per
 * secrets list (see {@link cachedPerSecrets}).
 */
export function deriveKeys(secrets: readonly string[], salt: string, purpose: KeyPurpose): Promise<SecretKey[]> {
  return cachedPerSecrets(secrets, `${purpose}\u0000${salt}`, () => Promise.all(secrets.map((secret) => deriveKey(secret, salt, purpose))))
}

/**
 * `length` bytes of HKDF-SHA-256 from `secret`, with `salt` and `info`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5869 HKDF
 */
export async function hkdfSha256(secret: string, salt: string, info: string, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const params = { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(info) }
  return new Uint8Array(await crypto.subtle.deriveBits(params, material, length * 8))
}

async function hkdf(secret: string, salt: string, purpose: KeyPurpose): Promise<SecretKey> {
  const raw = await hkdfSha256(secret, salt, `@portcullis/core ${purpose} key`, 32)
  if (purpose === "jwe") return importGcmKey(raw)
  return { raw, web: await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign", "verify"]) }
}

/** A compact JWE with `alg: dir` (so no encrypted key), its parts decoded. */
export interface CompactJwe {
  /** The protected header as sent (base64url): also the additional authenticated data. */
  header: string
  iv: Uint8Array<ArrayBuffer>
  ciphertext: Uint8Array<ArrayBuffer>
  tag: Uint8Array<ArrayBuffer>
}

/**
 * Splits a compact JWE whose encrypted key is empty (`alg: dir`); `undefined` when it is not one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1 JWE Compact Serialization
 */
export function splitCompactJwe(token: string): CompactJwe | undefined {
  const parts = token.split(".")
  if (parts.length !== 5 || parts[1] !== "" || parts[0] === "") return undefined
  const iv = fromBase64url(parts[2] as string)
  const ciphertext = fromBase64url(parts[3] as string)
  const tag = fromBase64url(parts[4] as string)
  if (iv === undefined || ciphertext === undefined || tag === undefined) return undefined
  return { header: parts[0] as string, iv, ciphertext, tag }
}

/** Joins a compact JWE with `alg: dir` from its protected header (base64url) and sealed parts. */
export function joinCompactJwe(header: string, iv: Uint8Array, { ciphertext, tag }: Sealed): string {
  return `${header}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(tag)}`
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
  for (const key of keys) if (sameBytes(await using.sign(key, data), signature, 32)) return true
  return false
}
