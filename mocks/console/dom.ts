// The console's only way to make markup: elements and text nodes, never HTML parsed from a string.
// Everything the page shows (URLs, names, bodies, headers) comes from users and receivers, so it
// reaches the document as text (createTextNode) or as an attribute value (setAttribute), which the
// browser never runs.

type Attribute = string | number | boolean | null | undefined;
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/**
 * An element with attributes and children. `true` sets a boolean attribute (`hidden`, `disabled`),
 * `false`, null and undefined leave it out; strings and numbers are set as they are.
 */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Readonly<Record<string, Attribute>> | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === true) element.setAttribute(name, "");
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/** The element with this id, which the page's markup must have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the console's markup has no #${id}`);
  return element as T;
}

interface Rendered {
  signature: string;
  element: Element;
}
const rendered = new WeakMap<Element, Map<string, Rendered>>();

/**
 * Shows `items` in `container`, in order, one element each. An item whose signature did not change
 * keeps its element (and with it focus, an open disclosure, a half-typed value); a changed one gets
 * a new element. Focus inside a replaced element moves to the element with the same `data-focus`,
 * or to `fallback` when there is none (a "Complete" button that a completed rebuild no longer has).
 */
export function reconcile<T>(
  container: Element,
  items: readonly T[],
  key: (item: T) => string,
  signature: (item: T) => string,
  render: (item: T) => Element,
  fallback?: (item: T) => string,
): void {
  const before = rendered.get(container) ?? new Map<string, Rendered>();
  const after = new Map<string, Rendered>();
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const focusKey = focused && container.contains(focused) ? focused.dataset.focus : undefined;
  const focusedItem = focused && container.contains(focused) ? focused.closest("[data-item]") : null;
  let cursor: ChildNode | null = container.firstChild;
  for (const item of items) {
    const id = key(item);
    const sign = signature(item);
    const kept = before.get(id);
    const entry = kept && kept.signature === sign ? kept : { signature: sign, element: render(item) };
    entry.element.setAttribute("data-item", id);
    after.set(id, entry);
    if (entry.element === cursor) cursor = cursor.nextSibling;
    else container.insertBefore(entry.element, cursor);
  }
  while (cursor) {
    const next: ChildNode | null = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
  rendered.set(container, after);
  if (!focused || focused.isConnected) return;
  // The focused element was replaced: put focus back where the user was.
  const again = focusKey
    ? container.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focusKey)}"]`)
    : null;
  if (again) {
    again.focus();
    return;
  }
  const itemKey = focusedItem?.getAttribute("data-item");
  const item = itemKey === null || itemKey === undefined ? undefined : items.find((i) => key(i) === itemKey);
  const target =
    item && fallback
      ? container.querySelector<HTMLElement>(`[data-focus="${CSS.escape(fallback(item))}"]`)
      : null;
  target?.focus();
}

const openDisclosures = new Set<string>();

/** Remembers which disclosures (`<details data-open-key>`) are open, across re-renders. */
export function trackDisclosures(root: Document): void {
  root.addEventListener(
    "toggle",
    (event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement)) return;
      const key = details.dataset.openKey;
      if (key === undefined) return;
      if (details.open) openDisclosures.add(key);
      else openDisclosures.delete(key);
    },
    true,
  );
}

/** A disclosure that opens on demand and stays open when its item is drawn again. */
function disclosure(key: string, summary: Child, ...content: Child[]): HTMLDetailsElement {
  return h(
    "details",
    { "data-open-key": key, open: openDisclosures.has(key) },
    h("summary", null, summary),
    ...content,
  );
}

/** The headers and body of a request the mock sent or received (a callback attempt, a sink entry), folded. */
export function headersAndBody(
  key: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): HTMLDetailsElement {
  const lines = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  return disclosure(
    key,
    "Headers and body",
    h("h5", null, "Headers"),
    h("pre", { class: "code" }, lines),
    h("h5", null, "Body"),
    h("pre", { class: "code" }, body),
  );
}

/** A request's body as the request journal kept it, folded. */
export function requestBody(key: string, body: string): HTMLDetailsElement {
  return disclosure(key, "Body", h("pre", { class: "code" }, body));
}
