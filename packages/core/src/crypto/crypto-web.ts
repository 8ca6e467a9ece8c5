/**
 * The WebCrypto engine: standard, available in every runtime. `./crypto.ts` loads it on first use
 * where the runtime has no Node crypto, so a Node app never bundles it into what loads at start.
 */
import { aadBits, concat, sameBytes, type CbcHmacKey, type CryptoEngine } from "./crypto-engine.js"

/** The bytes as an ArrayBuffer-backed array, copied only when they are not already one. */
function toArrayBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes)
}

/** The `A256CBC-HS512` tag on WebCrypto, which takes the MAC input in one piece. */
async function webCbcTag(key: CbcHmacKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(aad.length + iv.length + ciphertext.length + 8)
  input.set(aad)
  input.set(iv, aad.length)
  input.set(ciphertext, aad.length + iv.length)
  input.set(aadBits(aad), aad.length + iv.length + ciphertext.length)
  return new Uint8Array(await crypto.subtle.sign("HMAC", key.web.mac, input)).subarray(0, 32)
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
  async encryptCbcHmac(key, iv, aad, plaintext) {
    const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, key.web.enc, plaintext))
    return { ciphertext, tag: await webCbcTag(key, aad, iv, ciphertext) }
  },
  async decryptCbcHmac(key, iv, aad, { ciphertext, tag }) {
    if (!sameBytes(await webCbcTag(key, aad, iv, ciphertext), tag, 32)) return undefined
    try {
      return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key.web.enc, toArrayBuffer(ciphertext)))
    } catch {
      return undefined
    }
  },
}
