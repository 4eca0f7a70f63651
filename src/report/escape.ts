/**
 * The one escaping module of every HTML and SVG view: `escapeHtml` for text and attribute values,
 * `jsonForScript` for data embedded inertly in `<script type="application/json">`.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML/SVG element content and quoted attribute values (the only escaper of untrusted text). */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** Escapes text for Markdown, which renders raw HTML: `&`, `<` and `>` become entities (quotes need nothing there). */
export function escapeMarkdownHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>]/g, (character) => HTML_ESCAPES[character]!);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the JS line separators are
 * written as \u escapes, so no data can close the script element or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value ?? null)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
