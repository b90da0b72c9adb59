/**
 * The HTTP security headers (issue 17). Every answer starts locked down (server middleware); the web
 * controller replaces the policy on the apps it serves, the uploads controller on stored files.
 */
import type { HttpContext } from '@adonisjs/core/http'

type Response = HttpContext['response']

/** Anything that is not one of our documents: nothing may load, frame it or be framed by it. */
const LOCKED_DOWN = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * runtime-web and the designer. Scripts only from our origin, never inline or eval'd; wasm compiles
 * for QuickJS and pdf.js's image decoders ('wasm-unsafe-eval' does not allow eval). Styles allow
 * 'unsafe-inline': Monaco injects <style> elements and sets style attributes, the HTML element's
 * sandboxed srcdoc frame (which inherits this policy) carries its own <style>, and a style cannot
 * run script. blob: covers the object URLs of stored files (images, viewers, the case's document
 * frame); a form's modal may show any http(s) address in a sandboxed frame. 'self' in connect-src
 * covers ws:/wss: to our host (/ws).
 */
function appPolicy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    "connect-src 'self' data: blob:",
    "worker-src 'self'",
    "frame-src 'self' blob: http: https:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ')
}

/** Features the apps use (the camera for photo and ID card fields); the rest are off. */
const PERMISSIONS = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()'

/**
 * The headers every answer carries; HSTS only when the product's address is https. API answers
 * (`api`: /data, /inside, /api) are not stored by the browser or a proxy unless their controller
 * says otherwise: they hold personal data read with a session token.
 */
export function setBaseHeaders(response: Response, options: { https: boolean; api: boolean }): void {
  response.header('Content-Security-Policy', LOCKED_DOWN)
  response.header('X-Frame-Options', 'DENY')
  response.header('X-Content-Type-Options', 'nosniff')
  response.header('Referrer-Policy', 'same-origin')
  response.header('Permissions-Policy', PERMISSIONS)
  if (options.https) response.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  if (options.api) response.header('Cache-Control', 'no-store')
}

/** One of the apps' pages or assets. Only the runtime's /preview may be framed, by the designer (same origin). */
export function setAppHeaders(response: Response, framedBySelf: boolean): void {
  response.header('Content-Security-Policy', appPolicy(framedBySelf ? "'self'" : "'none'"))
  response.header('X-Frame-Options', framedBySelf ? 'SAMEORIGIN' : 'DENY')
}

/**
 * A stored (uploaded or generated) file: opened on its own it is a document of our origin, so it is
 * sandboxed (an opaque origin, no script) whatever its type claims. PDFs are the exception: the
 * browsers' PDF viewers refuse to run in a sandbox, and a PDF's content never runs as our page.
 * Our own frames (the case's document for a task link) may show it.
 */
export function setStoredFileHeaders(response: Response, mime: string): void {
  const policy =
    mime === 'application/pdf' ? "frame-ancestors 'self'" : "default-src 'none'; frame-ancestors 'self'; sandbox"
  response.header('Content-Security-Policy', policy)
  response.header('X-Frame-Options', 'SAMEORIGIN')
  response.header('X-Content-Type-Options', 'nosniff')
}
