/**
 * The Content-Security-Policy of every page: scripts run only with this response's nonce (Next puts
 * it on its own scripts, next-themes on its inline one), and `'strict-dynamic'` lets those load the
 * chunks they need; nothing else may run, frame the app, post forms elsewhere or load plugins.
 * Styles allow inline attributes (the canvas positions nodes with them). Development adds
 * `'unsafe-eval'`, which React's dev tooling needs; production never does.
 */
export function pageContentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of API answers (JSON and event streams): nothing at all may load from them. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
