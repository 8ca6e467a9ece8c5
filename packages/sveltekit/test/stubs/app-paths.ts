/** `$app/paths` for unit tests: an app served at the root. */
export const base = ""
export const assets = ""
