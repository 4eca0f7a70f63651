/**
 * DOM helpers of the page script. Data reaches the page only through textContent and DOM
 * properties (never innerHTML), so an answer or a dataset text can never become markup.
 */

/** An element by id; the page's own markup has every id the script asks for. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** Attributes of `el`: `text` sets textContent, `className` the class, `on*` listeners. */
export type Props = Record<string, unknown>;
/** A child of `el`; null, undefined and false are skipped. */
export type Child = Node | string | null | undefined | false;

/** A new element with its attributes and children. */
export function el(tag: string, props?: Props, children?: readonly Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key === 'className') node.className = String(value);
    else if (key.slice(0, 2) === 'on' && typeof value === 'function')
      node.addEventListener(key.slice(2), value as EventListener);
    else node.setAttribute(key, String(value));
  }
  for (const child of children ?? []) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** The JSON of an inert `<script type="application/json">` block, or null when the page lacks it. */
export function readJson<T>(id: string): T | null {
  const node = document.getElementById(id);
  return node ? (JSON.parse(node.textContent ?? 'null') as T) : null;
}

/** A count as the page prints it (12,345). */
export function fmt(n: number): string {
  return Number(n).toLocaleString('en-US');
}

/** Fills a select with [value, label] entries, selecting the current value. */
export function options(
  select: HTMLSelectElement,
  entries: readonly (readonly [string, string])[],
  current: string | number,
): void {
  select.replaceChildren();
  for (const [value, label] of entries) {
    const option = el('option', { value, text: label }) as HTMLOptionElement;
    if (value === String(current)) option.selected = true;
    select.appendChild(option);
  }
}

/** A collapsible section, open unless `open` is false. */
export function section(title: string, children: readonly Child[], open?: boolean): HTMLElement {
  const body = el('div', { className: 'section-body' }, children);
  const props = open === false ? { className: 'section' } : { className: 'section', open: 'open' };
  return el('details', props, [el('summary', { text: title }), body]);
}

/** Preformatted text. */
export function pre(text: string, className?: string): HTMLElement {
  return el('pre', { className: className ?? '', text });
}

/** "label: value", or nothing when the value is empty. */
export function field(label: string, value: unknown): HTMLElement | null {
  return value === null || value === undefined || value === ''
    ? null
    : el('p', {}, [el('strong', { text: `${label}: ` }), String(value)]);
}

/** A value as text: strings as they are, anything else as indented JSON. */
export function pretty(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
