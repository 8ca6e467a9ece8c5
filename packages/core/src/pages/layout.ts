/**
 * What every built-in page shares: escaping, the theme's colors and logo checked before they
 * reach a style or an attribute, and one layout with no script.
 */
import type { Theme } from "../types.js"

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

/** A hidden form field; nothing when there is no value. */
export function hiddenInput(name: string, value: string | undefined): string {
  return value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
}

/** A color from config, or `undefined` when it is not a plain CSS color (it lands in a style attribute). */
export function safeColor(value: string | undefined): string | undefined {
  return value !== undefined && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : undefined
}

/** An image URL from config, only when it is https or a data image. */
function safeImage(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (/^data:image\/(png|svg\+xml|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(value)) return value
  try {
    return new URL(value).protocol === "https:" ? value : undefined
  } catch {
    return undefined
  }
}

/** Black or white, whichever reads better on `color` (a #rgb or #rrggbb color). */
export function textOn(color: string): string {
  const hex = color.startsWith("#") ? color.slice(1) : ""
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex.slice(0, 6)
  if (full.length !== 6) return "#fff"
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
  return r * 0.299 + g * 0.587 + b * 0.114 > 160 ? "#111" : "#fff"
}

export function layout(theme: Theme, title: string, body: string): string {
  const brand = safeColor(theme.brandColor) ?? "#346df1"
  const scheme = theme.colorScheme === "dark" ? "dark" : theme.colorScheme === "light" ? "light" : "light dark"
  const logo = safeImage(theme.logo)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${scheme}"><title>${escapeHtml(title)}</title>
<style>
:root{color-scheme:${scheme};--brand:${brand}}
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:Canvas;color:CanvasText}
main{width:min(22rem,90vw);padding:2rem;border-radius:12px;box-shadow:0 2px 12px rgb(0 0 0/.15);text-align:center}
img.logo{max-height:64px;max-width:12rem;margin-bottom:1rem}
h1{font-size:1.25rem;margin:0 0 1rem}
form{margin:.75rem 0}
button{width:100%;padding:.75rem 1rem;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;background:var(--brand);color:#fff}
button:focus-visible,input:focus-visible{outline:3px solid CanvasText;outline-offset:2px}
label{display:block;text-align:left;font-size:.875rem;margin:.5rem 0 .25rem}
input{box-sizing:border-box;width:100%;padding:.6rem .75rem;margin-bottom:.5rem;border:1px solid GrayText;border-radius:8px;font:inherit;background:Canvas;color:CanvasText}
hr{border:0;border-top:1px solid GrayText;opacity:.4;margin:1.25rem 0}
.error{padding:.75rem;border-radius:8px;background:#fde8e8;color:#8a1c1c;margin-bottom:1rem}
a{color:var(--brand)}
</style></head>
<body><main>${logo === undefined ? "" : `<img class="logo" src="${escapeHtml(logo)}" alt="">`}${body}</main></body></html>`
}
