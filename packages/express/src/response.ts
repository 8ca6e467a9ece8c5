/** A web-standard `Response` written to an Express response. */
import type { Response as ExpressResponse } from "express"

/**
 * Appends one `Set-Cookie` to the Express response, beside any the app set: each cookie stays
 * its own header line, as browsers require.
 */
export function appendSetCookie(res: ExpressResponse, setCookie: string): void {
  res.append("Set-Cookie", setCookie)
}

/**
 * Writes status, headers (every `Set-Cookie` separately) and body. The body goes out with
 * `res.end`, not `res.send`, so Express adds no ETag of its own to an auth answer. When core
 * answered before reading the whole request body (it was over the limit), the connection is
 * closed after the answer rather than kept for a client that is still sending.
 */
export async function sendResponse(response: Response, res: ExpressResponse): Promise<void> {
  res.status(response.status)
  if (!res.req.complete) res.setHeader("connection", "close")
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value)
  for (const setCookie of response.headers.getSetCookie()) appendSetCookie(res, setCookie)
  res.end(Buffer.from(await response.arrayBuffer()))
}
