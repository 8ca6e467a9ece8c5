/**
 * What every built-in page shares: escaping, the theme's colors and logos checked before they
 * reach a style or an attribute, readable button colors, and one layout with no script that
 * fits a phone and follows the browser's light or dark preference.
 */
import { safeColor } from "../config/read.js"
import type { Theme } from "../model.js"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

/** A hidden form field; nothing when there is no value. */
export function hiddenInput(name: string, value: string | undefined): string {
  return value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
}

/** An image URL from config, only when it is https or a data image. */
function safeImage(value: string): string | undefined {
  if (/^data:image\/(png|svg\+xml|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(value)) return value
  try {
    return new URL(value).protocol === "https:" ? value : undefined
  } catch {
    return undefined
  }
}

const VIEW_BOX = /\bviewBox="([\d\s.,-]{1,64})"/
const PATH = /<path\b[^>]*?\sd="([^"]*)"/g
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz\d\s.,eE+-]+$/

/**
 * An inline SVG logo (such as a Simple Icons file) redrawn from its `viewBox` and path data
 * only, filled with the text color: nothing else of the markup reaches the page.
 */
function inlineSvg(svg: string, className: string): string | undefined {
  const viewBox = VIEW_BOX.exec(svg)?.[1] ?? "0 0 24 24"
  const paths = [...svg.matchAll(PATH)].map((match) => match[1] ?? "")
  if (paths.length === 0 || !paths.every((d) => d.length > 0 && PATH_DATA.test(d))) return undefined
  return `<svg class="${className}" viewBox="${viewBox}" aria-hidden="true" focusable="false">${paths.map((d) => `<path d="${d}"/>`).join("")}</svg>`
}

/**
 * A logo from config, decorative (the text next to it names the brand): an inline `<svg>` with
 * path data, drawn in the text color, or an https/data image URL, as Auth.js accepts. Anything
 * else is dropped.
 */
export function logoMarkup(logo: string | undefined, className: string): string {
  if (logo === undefined) return ""
  const trimmed = logo.trim()
  if (trimmed.startsWith("<svg")) return inlineSvg(trimmed, className) ?? ""
  const image = safeImage(trimmed)
  return image === undefined ? "" : `<img class="${className}" src="${escapeHtml(image)}" alt="">`
}

type Rgb = [number, number, number]

function parseHex(color: string): Rgb | undefined {
  const hex = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(color)?.[1]
  if (hex === undefined) return undefined
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb
}

const toHex = (rgb: Rgb): string => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`

/** WCAG 2 relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

const contrast = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)

const DARK_TEXT = "#111111"
const DARK_LUMINANCE = luminance([17, 17, 17])

/**
 * A button's background and text for a brand color, readable at WCAG AA (4.5:1): white text
 * when it reads well; dark text on light brands; otherwise the brand darkened until white
 * text reads well (Google's blue or Reddit's orange stay recognisable, with legible text).
 * A color that is not `#rgb`/`#rrggbb` is kept with white text.
 */
export function buttonColors(brand: string): { background: string; text: string } {
  const rgb = parseHex(brand)
  if (rgb === undefined) return { background: brand, text: "#fff" }
  if (contrast(luminance(rgb), 1) >= 4.5) return { background: brand, text: "#fff" }
  if (contrast(luminance(rgb), DARK_LUMINANCE) >= 7) return { background: brand, text: DARK_TEXT }
  for (let keep = 0.95; keep > 0; keep -= 0.05) {
    const darker = rgb.map((channel) => channel * keep) as Rgb
    if (contrast(luminance(darker), 1) >= 4.5) return { background: toHex(darker), text: "#fff" }
  }
  return { background: DARK_TEXT, text: "#fff" }
}

/** The `style` attribute of a button in `brand` colors, with `text` (when it is a plain color) overriding the computed text color. */
export function brandButtonStyle(brand: string | undefined, text?: string): string {
  const color = safeColor(brand)
  if (color === undefined) return ""
  const colors = buttonColors(color)
  return ` style="background:${colors.background};color:${safeColor(text) ?? colors.text}"`
}

const LIGHT = "--bg:#f3f4f6;--card:#fff;--border:#c9ced6;--text:#1f2328;--muted:#57606a;--link:#0b57d0;--error-bg:#fdecec;--error-text:#8a1c1c;--error-border:#f3b4b4;--input-border:#8c959f"
const DARK = "--bg:#0d1117;--card:#1a1f27;--border:#454c56;--text:#e6edf3;--muted:#a1a9b3;--link:#79b8ff;--error-bg:#3a1618;--error-text:#ffc2c2;--error-border:#7a2e33;--input-border:#79828e"

function palette(scheme: Theme["colorScheme"]): string {
  if (scheme === "dark") return `:root{color-scheme:dark;${DARK}}`
  if (scheme === "light") return `:root{color-scheme:light;${LIGHT}}`
  return `:root{color-scheme:light dark;${LIGHT}}\n@media (prefers-color-scheme:dark){:root{${DARK}}}`
}

const STYLES = `*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1.5rem 1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{width:100%;max-width:24rem}
.brand{display:flex;flex-direction:column;align-items:center;gap:.5rem;width:fit-content;max-width:100%;margin:0 auto 1.25rem;color:var(--text);font-weight:600;font-size:1.125rem;text-decoration:none;overflow-wrap:anywhere;text-align:center}
.brand:hover span{text-decoration:underline}
.brand-logo{display:block;max-height:64px;max-width:12rem}
svg.brand-logo{width:64px;height:64px;fill:currentColor}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;box-shadow:0 1px 3px rgb(0 0 0/.08);padding:2rem 1.5rem;text-align:center;overflow-wrap:anywhere}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 1rem}
p{margin:0 0 1rem}
.muted{color:var(--muted);font-size:.9375rem}
form{margin:0 0 .75rem}
.button{display:flex;align-items:center;justify-content:center;gap:.625rem;width:100%;min-height:2.75rem;padding:.625rem 1rem;border:1px solid var(--border);border-radius:8px;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;background:var(--card);color:var(--text);box-shadow:inset 0 0 0 1px rgb(0 0 0/.06)}
.button:hover{filter:brightness(1.08)}
.button.primary{border-color:rgb(127 127 127/.4)}
.logo{width:1.25rem;height:1.25rem;flex:none;fill:currentColor;object-fit:contain}
:focus-visible{outline:3px solid var(--text);outline-offset:2px}
label{display:block;text-align:left;font-size:.875rem;font-weight:500;margin:0 0 .25rem}
input{width:100%;min-height:2.75rem;padding:.5rem .75rem;margin:0 0 .75rem;border:1px solid var(--input-border);border-radius:8px;font:inherit;background:var(--card);color:var(--text)}
.hint{text-align:left;font-size:.875rem;margin:-.25rem 0 .75rem}
.or{display:flex;align-items:center;gap:.75rem;margin:1.25rem 0;color:var(--muted);font-size:.875rem}
.or::before,.or::after{content:"";flex:1;border-top:1px solid var(--border)}
.error{padding:.75rem 1rem;border:1px solid var(--error-border);border-radius:8px;background:var(--error-bg);color:var(--error-text);text-align:left}
.notice{padding:.75rem 1rem;border:1px solid var(--border);border-radius:8px;background:var(--bg);text-align:left}
.signed-in{margin:0 0 1.25rem}.signed-in p{margin:0}.signed-in .links{justify-content:flex-start;margin:.5rem 0 0}
.button+.button{margin-top:.625rem}
.links{display:flex;flex-wrap:wrap;justify-content:center;gap:.5rem 1.25rem;margin:1rem 0 0}
a{color:var(--link);text-underline-offset:2px}`

/** The theme's own button colors: `brandColor` with `buttonText`, as Auth.js documents them. */
export function themeButtonStyle(theme: Theme): string {
  return brandButtonStyle(theme.brandColor ?? "#346df1", theme.buttonText)
}

/**
 * The app's home page: `theme.homeUrl` (checked at start; a path taken on `origin`), else
 * `origin`, the app's origin, or `"/"` on a page drawn before the origin is known.
 */
export function homePage(theme: Theme, origin: string): string {
  if (theme.homeUrl === undefined) return origin
  try {
    return new URL(theme.homeUrl, origin).href
  } catch {
    return theme.homeUrl
  }
}

/** The link above every card: the logo and the app's name (else the home page's host), to the home page. */
function brandLink(theme: Theme, home: string): string {
  let name = theme.brandName
  if (name === undefined) {
    try {
      name = new URL(home).host
    } catch {
      name = "Home page"
    }
  }
  return `<a class="brand" href="${escapeHtml(home)}">${logoMarkup(theme.logo, "brand-logo")}<span>${escapeHtml(name)}</span></a>`
}

/**
 * A whole page: the app's logo and name, linked to its home page, above one card holding `body`;
 * titled "`title` · `brandName`". `origin` is the app's origin (`"/"` when not known). `styles`
 * adds the rules of what only this page draws (a feature's pages), after the shared ones.
 */
export function layout(theme: Theme, title: string, body: string, origin: string, styles = ""): string {
  const scheme = theme.colorScheme === "dark" || theme.colorScheme === "light" ? theme.colorScheme : "light dark"
  const fullTitle = theme.brandName === undefined ? title : `${title} · ${theme.brandName}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}"><meta name="robots" content="noindex"><title>${escapeHtml(fullTitle)}</title>
<style>
${palette(theme.colorScheme)}
${STYLES}${styles === "" ? "" : `\n${styles}`}
</style></head>
<body><main>${brandLink(theme, homePage(theme, origin))}<div class="card">${body}</div></main></body></html>`
}
