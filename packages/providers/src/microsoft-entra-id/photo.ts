/**
 * The signed-in user's photo from Microsoft Graph, for `profilePhotoSize` (Microsoft Entra ID and
 * Azure AD): Graph serves it only with an access token, so the session carries it inline.
 *
 * @see https://learn.microsoft.com/en-us/graph/api/profilephoto-get
 */
import { Configuration } from "@portcullis/core/providers"

/** The square sizes Graph keeps a photo in. */
const SIZES = [48, 64, 96, 120, 240, 360, 432, 504, 648] as const

/** A size Graph keeps a photo in, in pixels. */
export type ProfilePhotoSize = (typeof SIZES)[number]

/** How long Graph may take to hand the photo over before the user signs in without one. */
const PHOTO_TIMEOUT_MS = 5_000

/**
 * Checks `profilePhotoSize` for a caller without types.
 *
 * @throws {Configuration} naming the option when the size is not one Graph keeps.
 */
export function photoSize(id: string, value: unknown): ProfilePhotoSize | undefined {
  if (value === undefined || SIZES.includes(value as ProfilePhotoSize)) return value as ProfilePhotoSize | undefined
  throw new Configuration(`Provider "${id}": \`profilePhotoSize\` must be one of ${SIZES.join(", ")}.`)
}

/**
 * The user's photo at `size` as a `data:` URL, or `null` when the user has none, the token may
 * not read it, or Graph does not answer in time: a missing photo never fails the sign-in.
 */
export async function graphPhoto(size: ProfilePhotoSize, accessToken: string | undefined): Promise<string | null> {
  if (accessToken === undefined) return null
  try {
    const response = await fetch(`https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(PHOTO_TIMEOUT_MS),
    })
    if (!response.ok) {
      await response.body?.cancel()
      return null
    }
    const type = response.headers.get("content-type")?.split(";")[0]?.trim() || "image/jpeg"
    const bytes = new Uint8Array(await response.arrayBuffer())
    let binary = ""
    // In slices: one call with every byte as an argument overflows the stack for the larger sizes.
    for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
    return `data:${type};base64,${btoa(binary)}`
  } catch {
    return null
  }
}
