/**
 * A software WebAuthn authenticator for tests: ES256 keys from WebCrypto, authenticator data,
 * `clientDataJSON` and a `none` attestation built by hand, so each test can bend one part (the
 * origin, the RP id hash, the flags, the counter, the signature) and see it refused.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data
 */
import { createHash } from "node:crypto"

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor }

function head(major: number, value: number): number[] {
  if (value < 24) return [(major << 5) | value]
  if (value < 0x100) return [(major << 5) | 24, value]
  if (value < 0x10000) return [(major << 5) | 25, value >> 8, value & 0xff]
  return [(major << 5) | 26, (value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]
}

/** A minimal CBOR encoder: the integers, strings, byte strings, arrays and maps WebAuthn uses. */
export function cbor(value: Cbor): Uint8Array {
  const out: number[] = []
  const write = (item: Cbor): void => {
    if (typeof item === "number") out.push(...(item >= 0 ? head(0, item) : head(1, -1 - item)))
    else if (typeof item === "string") {
      const bytes = new TextEncoder().encode(item)
      out.push(...head(3, bytes.length), ...bytes)
    } else if (item instanceof Uint8Array) out.push(...head(2, item.length), ...item)
    else if (Array.isArray(item)) {
      out.push(...head(4, item.length))
      item.forEach(write)
    } else {
      const entries = item instanceof Map ? [...item.entries()] : Object.entries(item)
      out.push(...head(5, entries.length))
      for (const [key, entry] of entries) {
        write(key)
        write(entry)
      }
    }
  }
  write(value)
  return Uint8Array.from(out)
}

export const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")
export const fromB64url = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64url"))
const sha256 = (bytes: Uint8Array | string): Uint8Array => new Uint8Array(createHash("sha256").update(bytes).digest())

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

function u32(value: number): Uint8Array {
  return Uint8Array.from([(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff])
}

/** WebCrypto's raw `r || s` ECDSA signature as the DER `SEQUENCE { r, s }` WebAuthn carries. */
function der(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array): Uint8Array => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    let trimmed = bytes.slice(start)
    if ((trimmed[0] as number) & 0x80) trimmed = concat(Uint8Array.of(0), trimmed)
    return concat(Uint8Array.of(0x02, trimmed.length), trimmed)
  }
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)))
  return concat(Uint8Array.of(0x30, body.length), body)
}

export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const

/** What a test may bend in one ceremony. */
export interface Bend {
  origin?: string
  rpId?: string
  type?: string
  challenge?: string
  crossOrigin?: boolean
  topOrigin?: string
  flags?: number
  counter?: number
  /** Signs with this key instead of the credential's. */
  signWith?: CryptoKey
  /** Changes the authenticator data after signing. */
  tamper?: (authData: Uint8Array) => Uint8Array
  userHandle?: string | null
  credentialId?: string
}

interface RegistrationOptions {
  challenge: string
  rp: { id?: string }
  user: { id: string }
}

interface AuthenticationOptions {
  challenge: string
  rpId?: string
}

/** One passkey held by the software authenticator. */
export interface SoftPasskey {
  id: Uint8Array
  keys: CryptoKeyPair
  userHandle: string
  counter: number
  rpId: string
}

export class SoftAuthenticator {
  readonly passkeys: SoftPasskey[] = []
  /** Signatures whose `r` or `s` had a leading zero byte, so DER carries it shorter than 32 bytes. */
  shortSignatures = 0
  /** Whether the authenticator counts signatures (many synced passkeys always report 0). */
  constructor(
    readonly origin: string,
    readonly counts = true,
  ) {}

  private clientData(type: string, challenge: string, bend: Bend): Uint8Array {
    const data: Record<string, unknown> = { type: bend.type ?? type, challenge: bend.challenge ?? challenge, origin: bend.origin ?? this.origin, crossOrigin: bend.crossOrigin ?? false }
    if (bend.topOrigin !== undefined) data.topOrigin = bend.topOrigin
    return new TextEncoder().encode(JSON.stringify(data))
  }

  /** `navigator.credentials.create`, answered as `RegistrationResponseJSON`. */
  async register(options: RegistrationOptions, bend: Bend = {}): Promise<{ json: Record<string, unknown>; passkey: SoftPasskey }> {
    const rpId = options.rp.id ?? new URL(this.origin).hostname
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]))
    const jwk = await crypto.subtle.exportKey("jwk", keys.publicKey)
    const cose = cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, fromB64url(jwk.x ?? "")], [-3, fromB64url(jwk.y ?? "")]]))
    const id = bend.credentialId === undefined ? crypto.getRandomValues(new Uint8Array(32)) : fromB64url(bend.credentialId)
    const counter = bend.counter ?? (this.counts ? 1 : 0)
    const flags = bend.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.BE | FLAGS.BS | FLAGS.AT
    const attested = concat(new Uint8Array(16), Uint8Array.of(id.length >> 8, id.length & 0xff), id, cose)
    let authData: Uint8Array = concat(sha256(bend.rpId ?? rpId), Uint8Array.of(flags), u32(counter), attested)
    if (bend.tamper) authData = bend.tamper(authData)
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, bend)
    const attestationObject = cbor({ fmt: "none", attStmt: {}, authData })
    const passkey: SoftPasskey = { id, keys, userHandle: options.user.id, counter, rpId }
    const credentialId = b64url(id)
    return {
      passkey,
      json: {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal", "hybrid"] },
      },
    }
  }

  /** Registers and keeps the passkey for later sign-ins. */
  async create(options: RegistrationOptions, bend: Bend = {}): Promise<Record<string, unknown>> {
    const { json, passkey } = await this.register(options, bend)
    this.passkeys.push(passkey)
    return json
  }

  /** `navigator.credentials.get` with `passkey` (the last one by default), answered as `AuthenticationResponseJSON`. */
  async get(options: AuthenticationOptions, bend: Bend = {}, passkey = this.passkeys.at(-1)): Promise<Record<string, unknown>> {
    if (passkey === undefined) throw new Error("the soft authenticator holds no passkey")
    if (this.counts && bend.counter === undefined) passkey.counter += 1
    const counter = bend.counter ?? passkey.counter
    const flags = bend.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.BE | FLAGS.BS
    const signed = concat(sha256(bend.rpId ?? options.rpId ?? passkey.rpId), Uint8Array.of(flags), u32(counter))
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, bend)
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, bend.signWith ?? passkey.keys.privateKey, concat(signed, sha256(clientDataJSON))),
    )
    if (raw[0] === 0 || raw[32] === 0) this.shortSignatures += 1
    const authData = bend.tamper ? bend.tamper(signed) : signed
    const credentialId = bend.credentialId ?? b64url(passkey.id)
    return {
      id: credentialId,
      rawId: credentialId,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(der(raw)),
        ...(bend.userHandle === null ? {} : { userHandle: bend.userHandle ?? passkey.userHandle }),
      },
    }
  }
}
