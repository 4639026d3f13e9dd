// Rows a page repeats hundreds of times (the queue's week holds up to 500 posts) are built as strings with every
// value escaped here, then placed in the JSX page as one already-escaped piece. The JSX runtime costs about 40 µs a
// card (a node per element and attribute, each escaped and joined as it is walked); a string template a few.
// Everything interpolated goes through esc(), attribute values included, so nothing typed becomes markup.
import { raw } from "hono/html";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const NEEDS = /[&<>"']/;
const ALL = /[&<>"']/g;

export const esc = (s: string): string => (NEEDS.test(s) ? s.replace(ALL, (c) => ESC[c]!) : s);

/** A string of HTML this module built (its values escaped), to place in a JSX tree as it is. */
export const trusted = (html: string) => raw(html);

/** An <option> as a string, as the JSX runtime writes one (a chosen one `selected=""`). */
export const optionHtml = (value: string, label: string, selected: boolean) =>
  `<option value="${esc(value)}"${selected ? ' selected=""' : ""}>${esc(label)}</option>`;
