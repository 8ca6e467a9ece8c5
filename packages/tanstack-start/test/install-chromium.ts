/** Vitest global set-up: installs Debian's Chromium on a fresh machine before the browser test. */
export { installChromium as default } from "@portcullis/test-kit/chromium"
