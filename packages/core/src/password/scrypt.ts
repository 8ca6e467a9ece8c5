/**
 * scrypt (RFC 7914) on what the runtime has: Node's `crypto.scrypt` where `node:crypto` is there
 * (Node.js, Bun, Deno, workerd with `nodejs_compat`), which runs off the event loop; otherwise
 * the audited pure-JavaScript scrypt of `@noble/hashes`, fetched only then (workerd without
 * `nodejs_compat`), which yields to the event loop between slices of its work.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7914 scrypt
 */

/** scrypt's cost parameters: `N = 2^ln` (work and memory), `r` (block size), `p` (lanes, run one after the other). */
export interface ScryptCost {
  ln: number
  r: number
  p: number
}

/** What one derivation needs: the cost, and the output's length. */
export interface ScryptInput extends ScryptCost {
  keyLength: number
}

type NodeScrypt = (
  password: Uint8Array,
  salt: Uint8Array,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
  callback: (error: Error | null | undefined, key: Uint8Array) => void,
) => void

/**
 * The bytes scrypt holds at once (its `B` and `V` arrays and a block), as OpenSSL counts them
 * against `maxmem`: set from the cost, so Node's 32 MiB default never refuses a cost we accept.
 */
export function scryptMemory({ ln, r, p }: ScryptCost): number {
  return 128 * r * (2 ** ln + p + 2)
}

function detectNodeScrypt(): NodeScrypt | undefined {
  // getBuiltinModule needs no import statement, so bundles for other runtimes stay clean.
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  try {
    const module = process?.getBuiltinModule?.("node:crypto") as { scrypt?: unknown } | undefined
    return typeof module?.scrypt === "function" ? (module.scrypt as NodeScrypt) : undefined
  } catch {
    return undefined
  }
}

const nodeScrypt = detectNodeScrypt()

/** Which implementation this runtime uses, for the figures and the runtime matrix. */
export const scryptEngine: "node" | "noble" = nodeScrypt === undefined ? "noble" : "node"

/**
 * Derives `keyLength` bytes from `password` and `salt` at `cost`, with `maxmem` set to what the
 * cost needs.
 *
 * @throws {Error} when the runtime's scrypt refuses the parameters (the callers bound them first).
 */
export async function scrypt(password: Uint8Array, salt: Uint8Array, input: ScryptInput): Promise<Uint8Array> {
  const options = { N: 2 ** input.ln, r: input.r, p: input.p, maxmem: scryptMemory(input) + 1024 }
  if (nodeScrypt !== undefined) {
    const derive = nodeScrypt
    return new Promise((resolve, reject) => {
      // Bun calls back with `undefined`, not `null`, for no error.
      derive(password, salt, input.keyLength, options, (error, key) => {
        if (error === null || error === undefined) resolve(key)
        else reject(error)
      })
    })
  }
  const { scryptAsync } = await import("@noble/hashes/scrypt.js")
  return scryptAsync(password, salt, { ...options, dkLen: input.keyLength })
}
