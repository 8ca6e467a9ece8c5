/** A cookie jar for one origin: replays what an implementation set, like a browser would. */
export class Jar {
  readonly cookies = new Map<string, string>()

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";", 1)
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      if (/;\s*max-age=0(;|$)/i.test(header) || /;\s*expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(eq + 1))
    }
  }

  header(): string {
    let out = ""
    for (const [name, value] of this.cookies) out += `${out === "" ? "" : "; "}${name}=${value}`
    return out
  }
}
