/**
 * What a crypto engine is (the symmetric primitives sessions and checks use), its keys, and the
 * byte helpers both engines share: a leaf, so the WebCrypto engine (`./crypto-web.ts`), loaded on
 * first use, imports nothing that loads it.
 */

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
  /**
   * `A256CBC-HS512`: AES-256-CBC, then HMAC-SHA-512 over the AAD, IV, ciphertext and AAD length,
   * cut to a 32-byte tag.
   *
   * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.2 AES_CBC_HMAC_SHA2
   */
  encryptCbcHmac(key: CbcHmacKey, iv: Uint8Array<ArrayBuffer>, aad: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>): Sealed | Promise<Sealed>
  /** Opens what {@link CryptoEngine.encryptCbcHmac} sealed; `undefined` when the tag does not authenticate it. */
  decryptCbcHmac(key: CbcHmacKey, iv: Uint8Array<ArrayBuffer>, aad: Uint8Array<ArrayBuffer>, sealed: Sealed): Uint8Array | undefined | Promise<Uint8Array | undefined>
}

/** An authenticated encryption's output: the ciphertext and its authentication tag. */
export interface Sealed {
  ciphertext: Uint8Array
  tag: Uint8Array
}

/**
 * A 512-bit `A256CBC-HS512` key: its first half keys HMAC-SHA-512, its second AES-256-CBC.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.2.1
 */
export interface CbcHmacKey {
  readonly raw: Uint8Array<ArrayBuffer>
  readonly web: { readonly mac: CryptoKey; readonly enc: CryptoKey }
  /** Node's KeyObjects for the two halves, made on first use by the Node engine. */
  node?: { mac: unknown; enc: unknown }
}

/** The 64-bit big-endian bit length of the AAD that `A256CBC-HS512` authenticates last. */
export function aadBits(aad: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(8)
  let bits = aad.length * 8
  for (let i = 7; i >= 0 && bits > 0; i--) {
    out[i] = bits % 256
    bits = Math.floor(bits / 256)
  }
  return out
}

/** Whether the first `length` bytes of `a` and `b` agree, in time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array, length: number): boolean {
  if (a.length < length || b.length !== length) return false
  let diff = 0
  for (let i = 0; i < length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}

/** `a` then `b`, in one new array. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
