/**
 * scrypt at a small fraction of its cost (`ln=8, p=1` whatever the stored string names), for the
 * tests of the password flow's behaviour, each of which mocks with it:
 * `vi.mock("../../src/password/scrypt.js", async (original) => (await import("./cheap-scrypt.js")).cheapScrypt(original))`.
 * The hash's own tests (`hash.test.ts`) and the timing comparison run it at full cost.
 */
type Scrypt = typeof import("../../src/password/scrypt.js")

export async function cheapScrypt(original: () => Promise<Scrypt>): Promise<Scrypt> {
  const real = await original()
  return { ...real, scrypt: (password, salt, input) => real.scrypt(password, salt, { ...input, ln: 8, p: 1 }) }
}
