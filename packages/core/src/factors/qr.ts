/**
 * A QR code drawn here, for the TOTP setup page: no third-party service sees the secret. Byte
 * mode, error correction level M, the smallest version (1 to 40) that holds the text, and the
 * mask with the lowest penalty, as ISO/IEC 18004:2015 specifies; drawn as an SVG that a page
 * inlines (dark modules on a light square with a four-module quiet zone, whatever the page's
 * color scheme, since scanners expect dark on light).
 *
 * @see ISO/IEC 18004:2015, Information technology — QR Code bar code symbology specification
 */
import { Configuration } from "../errors/errors.js"
import { escapeHtml } from "../pages/layout.js"

/** Error correction codewords per block at level M, by version (Table 9). */
const M_EC_PER_BLOCK = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28]
/** Error correction blocks at level M, by version (Table 9). */
const M_BLOCKS = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49]

/** The largest version. */
const MAX_VERSION = 40

/** Level M's two bits in the format information (§7.9.1, Table 12). */
const LEVEL_M_BITS = 0b00

/** A symbol: its side in modules and whether each module (row-major) is dark. */
export interface QrMatrix {
  version: number
  size: number
  mask: number
  /** `modules[row * size + column]` is dark. */
  modules: boolean[]
}

/** The number of modules left for data and error correction codewords in a version (§7.1, Table 1). */
function rawModules(version: number): number {
  let count = (16 * version + 128) * version + 64
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2
    count -= (25 * alignments - 10) * alignments - 55
    if (version >= 7) count -= 36
  }
  return count
}

/** Data codewords a version holds at level M. */
function dataCodewords(version: number): number {
  return Math.floor(rawModules(version) / 8) - (M_EC_PER_BLOCK[version - 1] ?? 0) * (M_BLOCKS[version - 1] ?? 0)
}

/** The character count indicator's length in byte mode (§7.4.1, Table 3). */
function countBits(version: number): number {
  return version <= 9 ? 8 : 16
}

/** The centres of the alignment patterns on each axis (§6.3.6, Annex E, Table E.1). */
function alignmentCentres(version: number): number[] {
  if (version === 1) return []
  const size = version * 4 + 17
  const count = Math.floor(version / 7) + 2
  // Table E.1's spacing: even, equal between all but the first two centres.
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2
  const centres = [6]
  for (let position = size - 7; centres.length < count; position -= step) centres.splice(1, 0, position)
  return centres
}

/** Multiplication in GF(2^8) with the field's polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2). */
function gfMultiply(a: number, b: number): number {
  let product = 0
  for (let bit = 7; bit >= 0; bit--) {
    product = (product << 1) ^ ((product >>> 7) * 0x11d)
    product ^= ((b >>> bit) & 1) * a
  }
  return product & 0xff
}

/** The Reed-Solomon generator polynomial of `degree` (§7.5.2, Annex A), highest term (1) left out. */
function generator(degree: number): number[] {
  const coefficients = new Array<number>(degree).fill(0)
  coefficients[degree - 1] = 1
  let root = 1
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      coefficients[j] = gfMultiply(coefficients[j] ?? 0, root) ^ (coefficients[j + 1] ?? 0)
    }
    root = gfMultiply(root, 0x02)
  }
  return coefficients
}

/** The error correction codewords of one block: the remainder of its data divided by the generator (§7.5.2). */
function errorCorrection(data: readonly number[], divisor: readonly number[]): number[] {
  const remainder = new Array<number>(divisor.length).fill(0)
  for (const codeword of data) {
    const factor = codeword ^ (remainder.shift() ?? 0)
    remainder.push(0)
    divisor.forEach((coefficient, i) => {
      remainder[i] = (remainder[i] ?? 0) ^ gfMultiply(coefficient, factor)
    })
  }
  return remainder
}

/** The data bit stream in byte mode, terminated and padded to the version's capacity (§7.4.3, §7.4.9, §7.4.10). */
function dataStream(bytes: Uint8Array, version: number): number[] {
  const bits: number[] = []
  const put = (value: number, length: number): void => {
    for (let bit = length - 1; bit >= 0; bit--) bits.push((value >>> bit) & 1)
  }
  put(0b0100, 4)
  put(bytes.length, countBits(version))
  for (const byte of bytes) put(byte, 8)
  const capacity = dataCodewords(version) * 8
  put(0, Math.min(4, capacity - bits.length))
  put(0, (8 - (bits.length % 8)) % 8)
  const codewords: number[] = []
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0))
  for (let pad = 0xec; codewords.length < capacity / 8; pad ^= 0xec ^ 0x11) codewords.push(pad)
  return codewords
}

/** Data codewords split into blocks, each with its error correction, interleaved (§7.5.2, §7.6). */
function finalCodewords(data: readonly number[], version: number): number[] {
  const blocks = M_BLOCKS[version - 1] ?? 1
  const ecLength = M_EC_PER_BLOCK[version - 1] ?? 0
  const total = Math.floor(rawModules(version) / 8)
  const shortBlocks = blocks - (total % blocks)
  const shortData = Math.floor(total / blocks) - ecLength
  const divisor = generator(ecLength)
  const dataBlocks: number[][] = []
  const ecBlocks: number[][] = []
  for (let block = 0, offset = 0; block < blocks; block++) {
    const length = shortData + (block < shortBlocks ? 0 : 1)
    const part = data.slice(offset, offset + length)
    offset += length
    dataBlocks.push(part)
    ecBlocks.push(errorCorrection(part, divisor))
  }
  const out: number[] = []
  for (let i = 0; i <= shortData; i++) for (const block of dataBlocks) if (i < block.length) out.push(block[i] ?? 0)
  for (let i = 0; i < ecLength; i++) for (const block of ecBlocks) out.push(block[i] ?? 0)
  return out
}

/** The remainder of `value` (shifted left by the divisor's degree) divided by a BCH generator. */
function bchRemainder(value: number, generatorBits: number, degree: number): number {
  let remainder = value << degree
  for (let bit = 31 - Math.clz32(remainder); bit >= degree; bit--) if ((remainder >>> bit) & 1) remainder ^= generatorBits << (bit - degree)
  return remainder
}

/** A symbol under construction: modules, and which of them are function patterns (never masked). */
class QrSymbol {
  readonly size: number
  readonly dark: boolean[]
  readonly reserved: boolean[]

  constructor(readonly version: number) {
    this.size = version * 4 + 17
    this.dark = new Array<boolean>(this.size * this.size).fill(false)
    this.reserved = new Array<boolean>(this.size * this.size).fill(false)
  }

  set(row: number, column: number, dark: boolean): void {
    this.dark[row * this.size + column] = dark
    this.reserved[row * this.size + column] = true
  }

  /** Finder patterns with their separators (§6.3.3, §6.3.4), timing patterns (§6.3.5), alignment patterns (§6.3.6), the dark module and the format and version areas. */
  drawFunctionPatterns(): void {
    const { size } = this
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0)
      this.set(i, 6, i % 2 === 0)
    }
    for (const [row, column] of [[3, 3], [3, size - 4], [size - 4, 3]] as const) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const r = row + dy
          const c = column + dx
          if (r < 0 || r >= size || c < 0 || c >= size) continue
          const ring = Math.max(Math.abs(dy), Math.abs(dx))
          this.set(r, c, ring !== 2 && ring !== 4)
        }
      }
    }
    const centres = alignmentCentres(this.version)
    for (const row of centres) {
      for (const column of centres) {
        // None overlaps a finder pattern.
        if ((row === 6 && column === 6) || (row === 6 && column === size - 7) || (row === size - 7 && column === 6)) continue
        for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) this.set(row + dy, column + dx, Math.max(Math.abs(dy), Math.abs(dx)) !== 1)
      }
    }
    this.drawFormat(0)
    this.drawVersion()
  }

  /** The format information for level M and `mask`, twice, and the dark module (§7.9). */
  drawFormat(mask: number): void {
    const { size } = this
    const data = (LEVEL_M_BITS << 3) | mask
    const bits = ((data << 10) | bchRemainder(data, 0x537, 10)) ^ 0x5412
    const bit = (i: number): boolean => ((bits >>> i) & 1) === 1
    for (let i = 0; i <= 5; i++) this.set(i, 8, bit(i))
    this.set(7, 8, bit(6))
    this.set(8, 8, bit(7))
    this.set(8, 7, bit(8))
    for (let i = 9; i < 15; i++) this.set(8, 14 - i, bit(i))
    for (let i = 0; i < 8; i++) this.set(8, size - 1 - i, bit(i))
    for (let i = 8; i < 15; i++) this.set(size - 15 + i, 8, bit(i))
    this.set(size - 8, 8, true)
  }

  /** The version information, twice, for versions 7 and up (§7.10). */
  drawVersion(): void {
    if (this.version < 7) return
    const bits = (this.version << 12) | bchRemainder(this.version, 0x1f25, 12)
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1
      const a = this.size - 11 + (i % 3)
      const b = Math.floor(i / 3)
      this.set(a, b, dark)
      this.set(b, a, dark)
    }
  }

  /** The codewords in the two-module-wide zigzag from the bottom right, skipping function patterns (§7.7.3). */
  placeCodewords(codewords: readonly number[]): void {
    const { size } = this
    let index = 0
    const total = codewords.length * 8
    for (let right = size - 1; right >= 1; right -= 2) {
      // The vertical timing pattern takes a whole column: the zigzag steps over it.
      if (right === 6) right = 5
      const upward = ((right + 1) & 2) === 0
      for (let step = 0; step < size; step++) {
        const row = upward ? size - 1 - step : step
        for (const column of [right, right - 1]) {
          const at = row * size + column
          if (this.reserved[at] === true) continue
          // Remainder bits past the last codeword stay light (§7.7.3).
          this.dark[at] = index < total && (((codewords[index >>> 3] ?? 0) >>> (7 - (index & 7))) & 1) === 1
          index++
        }
      }
    }
  }

  /** Flips the data modules where `mask`'s condition holds (§7.8.2, Table 10): applying it twice undoes it. */
  applyMask(mask: number): void {
    const condition = MASKS[mask]
    if (condition === undefined) throw new RangeError(`There is no mask ${String(mask)}.`)
    for (let row = 0; row < this.size; row++) {
      for (let column = 0; column < this.size; column++) {
        const at = row * this.size + column
        if (this.reserved[at] !== true && condition(row, column)) this.dark[at] = !this.dark[at]
      }
    }
  }

  /** The penalty score of the symbol as it is (§7.8.3.1, Table 11): lower is easier to read. */
  penalty(): number {
    const { size, dark } = this
    let score = 0
    const at = (row: number, column: number): boolean => dark[row * size + column] === true
    for (let line = 0; line < size; line++) {
      score += linePenalty((i) => at(line, i), size)
      score += linePenalty((i) => at(i, line), size)
    }
    for (let row = 0; row < size - 1; row++) {
      for (let column = 0; column < size - 1; column++) {
        const colour = at(row, column)
        if (at(row, column + 1) === colour && at(row + 1, column) === colour && at(row + 1, column + 1) === colour) score += 3
      }
    }
    const darkCount = dark.filter(Boolean).length
    const deviation = Math.abs((darkCount * 100) / (size * size) - 50)
    score += Math.floor(deviation / 5) * 10
    return score
  }
}

/** The eight data mask conditions, `i` the row and `j` the column (§7.8.2, Table 10). */
const MASKS: readonly ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i + j) % 2) + ((i * j) % 3)) % 2 === 0,
]

/** The finder-like run dark:light:dark:dark:dark:light:dark (1:1:3:1:1). */
const FINDER_LIKE = [true, false, true, true, true, false, true]

/**
 * One row's or column's penalties: runs of five or more modules of one colour (N1 = 3, plus one
 * per module past five) and 1:1:3:1:1 patterns with four light modules before or after them
 * (N3 = 40); the quiet zone outside the symbol counts as light.
 */
function linePenalty(module: (index: number) => boolean, size: number): number {
  let score = 0
  let run = 0
  for (let i = 0; i <= size; i++) {
    if (i < size && i > 0 && module(i) === module(i - 1)) {
      run++
      continue
    }
    if (run >= 5) score += 3 + (run - 5)
    run = 1
  }
  const light = (index: number): boolean => index < 0 || index >= size || !module(index)
  for (let start = 0; start + FINDER_LIKE.length <= size; start++) {
    if (!FINDER_LIKE.every((dark, offset) => module(start + offset) === dark)) continue
    const before = [1, 2, 3, 4].every((back) => light(start - back))
    const after = [0, 1, 2, 3].every((ahead) => light(start + FINDER_LIKE.length + ahead))
    if (before || after) score += 40
  }
  return score
}

/**
 * The QR symbol of `text` (as UTF-8 bytes): byte mode, level M, the smallest version holding it,
 * and of the eight masks the one with the lowest penalty (the first on a tie).
 *
 * @throws {Configuration} when the text is longer than version 40 holds at level M (2331 bytes).
 * @see ISO/IEC 18004:2015 §7.1 (the encoding procedure)
 */
export function qrMatrix(text: string): QrMatrix {
  const bytes = new TextEncoder().encode(text)
  let version = 1
  while (version <= MAX_VERSION && 4 + countBits(version) + bytes.length * 8 > dataCodewords(version) * 8) version++
  if (version > MAX_VERSION) throw new Configuration(`A QR code holds at most ${String(dataCodewords(MAX_VERSION) - 3)} bytes at error correction level M: the text has ${String(bytes.length)}.`)
  const symbol = new QrSymbol(version)
  symbol.drawFunctionPatterns()
  symbol.placeCodewords(finalCodewords(dataStream(bytes, version), version))
  let best = { mask: 0, score: Infinity }
  for (let mask = 0; mask < MASKS.length; mask++) {
    symbol.applyMask(mask)
    symbol.drawFormat(mask)
    const score = symbol.penalty()
    if (score < best.score) best = { mask, score }
    symbol.applyMask(mask)
  }
  symbol.applyMask(best.mask)
  symbol.drawFormat(best.mask)
  return { version, size: symbol.size, mask: best.mask, modules: [...symbol.dark] }
}

/** The quiet zone around the symbol, in modules (§6.3.8). */
const QUIET_ZONE = 4

/**
 * `text` as a QR code in an SVG, for a page to inline: an image named by `label` for screen
 * readers, one path of dark runs on a white square with the quiet zone, scaled by the page
 * (`width: 100%` of its box), modules kept crisp.
 *
 * @throws {Configuration} when the text is too long for a QR code (see {@link qrMatrix}).
 * @example
 * ```ts
 * const svg = qrSvg("otpauth://totp/Acme:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme", { label: "QR code for your authenticator app" })
 * ```
 */
export function qrSvg(text: string, options: { label?: string } = {}): string {
  const { size, modules } = qrMatrix(text)
  const side = size + QUIET_ZONE * 2
  let path = ""
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; ) {
      if (modules[row * size + column] !== true) {
        column++
        continue
      }
      let run = 1
      while (column + run < size && modules[row * size + column + run] === true) run++
      path += `M${String(column + QUIET_ZONE)} ${String(row + QUIET_ZONE)}h${String(run)}v1h-${String(run)}z`
      column += run
    }
  }
  const label = escapeHtml(options.label ?? "QR code")
  return `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 ${String(side)} ${String(side)}" role="img" aria-label="${label}" shape-rendering="crispEdges"><rect width="${String(side)}" height="${String(side)}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
}
