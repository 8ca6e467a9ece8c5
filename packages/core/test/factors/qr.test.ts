/**
 * The QR encoder, read back by a real decoder (jsQR) from a rasterised symbol: every version's
 * capacity boundary at level M, random texts, long otpauth URIs, and the SVG's own drawing.
 */
import { randomBytes } from "node:crypto"
import jsQRModule from "jsqr"
import { describe, expect, it } from "vitest"

import { qrMatrix, qrSvg, type QrMatrix } from "../../src/factors/qr.js"

/** Byte-mode capacity at level M for versions 1 to 40 (ISO/IEC 18004:2015 §7.3.1, Table 7). */
const M_BYTE_CAPACITY = [
  14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666, 711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538,
  1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331,
]

/** jsQR is a UMD bundle whose `module.exports` is the function its types call `default`. */
const jsQR = jsQRModule as unknown as typeof jsQRModule.default

/** Pixels per module when rasterising, and the quiet zone (§6.3.8: four modules). */
const SCALE = 2
const QUIET = 4

/** The modules as RGBA pixels, black on white, as a camera would see a printed symbol. */
function rasterise(matrix: Pick<QrMatrix, "size" | "modules">): { data: Uint8ClampedArray; width: number } {
  const width = (matrix.size + QUIET * 2) * SCALE
  const data = new Uint8ClampedArray(width * width * 4).fill(255)
  for (let row = 0; row < matrix.size; row++) {
    for (let column = 0; column < matrix.size; column++) {
      if (matrix.modules[row * matrix.size + column] !== true) continue
      for (let y = 0; y < SCALE; y++) {
        for (let x = 0; x < SCALE; x++) {
          const at = (((row + QUIET) * SCALE + y) * width + (column + QUIET) * SCALE + x) * 4
          data[at] = data[at + 1] = data[at + 2] = 0
        }
      }
    }
  }
  return { data, width }
}

/** What jsQR reads from the symbol: its bytes and version, or `null`. */
function decode(matrix: Pick<QrMatrix, "size" | "modules">): { bytes: number[]; version: number } | null {
  const { data, width } = rasterise(matrix)
  const found = jsQR(data, width, width, { inversionAttempts: "dontInvert" })
  return found === null ? null : { bytes: found.binaryData, version: found.version }
}

const utf8 = (text: string): number[] => [...new TextEncoder().encode(text)]

/** Printable ASCII of `length`, different every call. */
function text(length: number): string {
  return Array.from(randomBytes(length), (byte) => String.fromCharCode(0x21 + (byte % 94))).join("")
}

describe("qrMatrix (ISO/IEC 18004:2015, byte mode, level M)", () => {
  it("takes the smallest version holding the text: each of the 40 capacities of Table 7 fits, one byte more takes the next version", () => {
    M_BYTE_CAPACITY.forEach((capacity, index) => {
      expect(qrMatrix("x".repeat(capacity)).version, `${capacity} bytes`).toBe(index + 1)
      if (index < 39) expect(qrMatrix("x".repeat(capacity + 1)).version, `${capacity + 1} bytes`).toBe(index + 2)
    })
  })

  // Every version an otpauth URI may take, and larger ones with other block structures (Table 9).
  for (const version of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 27, 33, 40]) {
    const capacity = M_BYTE_CAPACITY[version - 1] ?? 0
    it(`a full version ${version} (${capacity} bytes) and one byte more decode`, () => {
      const full = text(capacity)
      const fullMatrix = qrMatrix(full)
      expect(fullMatrix.size).toBe(version * 4 + 17)
      expect(decode(fullMatrix)).toEqual({ bytes: utf8(full), version })
      if (version < 40) {
        const over = text(capacity + 1)
        expect(decode(qrMatrix(over))).toEqual({ bytes: utf8(over), version: version + 1 })
      }
    })
  }

  it("refuses a text longer than version 40 holds, naming the limit", () => {
    expect(() => qrMatrix("x".repeat(2332))).toThrow(/at most 2331 bytes/)
  })

  it("encodes any text as its UTF-8 bytes: random lengths, non-ASCII, empty", () => {
    const samples = ["", "a", "Ünïcødé ✓ 二要素", "otpauth://totp/%E2%9C%93?secret=A", ...Array.from({ length: 40 }, (_, i) => text(1 + ((i * 37) % 300)))]
    for (const sample of samples) expect(decode(qrMatrix(sample))?.bytes, JSON.stringify(sample)).toEqual(utf8(sample))
  })

  it("chooses among all eight masks by the penalty rules (§7.8.3), each symbol still decoding", () => {
    const seen = new Set<number>()
    for (let i = 0; i < 120 && seen.size < 8; i++) {
      const sample = text(10 + (i % 60))
      const matrix = qrMatrix(sample)
      seen.add(matrix.mask)
      expect(decode(matrix)?.bytes).toEqual(utf8(sample))
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it("writes the format information of level M (§7.9.1): mask 0 reads 101010000010010 around the top-left finder", () => {
    // Search for a text whose symbol takes mask 0, then read the 15 bits back as §7.9.1 places them.
    let matrix: QrMatrix | undefined
    for (let i = 0; matrix === undefined; i++) {
      const candidate = qrMatrix(`mask zero ${String(i)}`)
      if (candidate.mask === 0) matrix = candidate
    }
    const { size, modules } = matrix
    const at = (row: number, column: number): string => (modules[row * size + column] === true ? "1" : "0")
    const low = [0, 1, 2, 3, 4, 5, 7, 8].map((row) => at(row, 8)).join("") + at(8, 7)
    const high = [0, 1, 2, 3, 4, 5].map((column) => at(8, column)).join("")
    const bits = low.split("").reverse().join("")
    expect(high + bits).toBe("101010000010010")
    expect(at(size - 8, 8), "the dark module").toBe("1")
  })
})

describe("qrSvg", () => {
  it("draws exactly the symbol's dark modules inside a four-module quiet zone, as a labelled image", () => {
    const uri = "otpauth://totp/Acme%20Tools:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme%20Tools&algorithm=SHA1&digits=6&period=30"
    const matrix = qrMatrix(uri)
    const svg = qrSvg(uri, { label: 'Scan "me" <now>' })
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="Scan &quot;me&quot; &lt;now&gt;"/)
    const side = matrix.size + 8
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`)
    const drawn = new Array<boolean>(matrix.size * matrix.size).fill(false)
    for (const [, x, y, run] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      for (let i = 0; i < Number(run); i++) drawn[(Number(y) - 4) * matrix.size + Number(x) - 4 + i] = true
    }
    expect(drawn).toEqual(matrix.modules)
    expect(decode({ size: matrix.size, modules: drawn })?.bytes).toEqual(utf8(uri))
  })

  it("fits an otpauth URI with a long issuer and account (version 10 and up), still decoding", () => {
    const issuer = encodeURIComponent("Acme Incorporated — Europe, Middle East & Africa Identity Services")
    const uri = `otpauth://totp/${issuer}:${encodeURIComponent("ada.lovelace+second-factor@engineering.example.co.uk")}?secret=${"JBSWY3DPEHPK3PXP".repeat(2)}&issuer=${issuer}&algorithm=SHA1&digits=6&period=30`
    const matrix = qrMatrix(uri)
    expect(matrix.version).toBeGreaterThanOrEqual(10)
    expect(decode(matrix)?.bytes).toEqual(utf8(uri))
  })
})
