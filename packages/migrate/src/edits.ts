/** A replacement of the text between two source positions. */
export interface TextEdit {
  start: number
  end: number
  text: string
}

/**
 * Applies edits to `text` by position, so everything between them (formatting, comments) stays
 * byte for byte. Edits at the same position apply in the order given.
 *
 * @throws Error when two edits overlap (a bug in the codemod, never in the input).
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits.map((edit, order) => ({ ...edit, order })).sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order)
  let result = ""
  let at = 0
  for (const edit of sorted) {
    if (edit.start < at) throw new Error(`@portcullis/migrate: overlapping edits at ${String(edit.start)}`)
    result += text.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return result + text.slice(at)
}
