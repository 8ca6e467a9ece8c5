/**
 * Reading an answer from another server within a size limit: a provider that answers with an
 * endless or huge body must cost us at most `max` bytes, whatever its `Content-Length` says.
 */

/**
 * The body of `response` as text, read no further than `max` bytes (the stream is cancelled
 * there); `tooLarge()` is thrown past it, or at once when `Content-Length` says so.
 *
 * @throws what `tooLarge` makes, when the body is larger than `max`.
 */
export async function readLimitedText(response: Response, max: number, tooLarge: () => Error): Promise<string> {
  if (Number(response.headers.get("content-length") ?? "0") > max) throw tooLarge()
  if (response.body === null) return ""
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      throw tooLarge()
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}
