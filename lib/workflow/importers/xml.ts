/**
 * A tiny, safe XML reader for importing seed formats (AutoAgent workflow forms). No dependency, no
 * DTDs and no entity expansion (a DOCTYPE is refused, so "billion laughs" cannot happen); only the
 * five predefined entities and numeric character references are decoded. Forgiving where
 * model-written forms are sloppy: a "<" not followed by a name is text ("score < 7"), an unknown
 * "&word;" stays as written. Errors carry 1-based line and column.
 */
export type XmlElement = {
  type: "element";
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  line: number;
};
/** A child of an element: another element or decoded text. */
export type XmlNode = XmlElement | { type: "text"; text: string };

/** A malformed or refused document, with its 1-based line and column. */
export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = "XmlError";
  }
}

/** Inputs above this size are refused before parsing (1 MiB). */
export const MAX_XML_LENGTH = 1 << 20;
const MAX_DEPTH = 200;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.:-]*/y;
const WS = /\s*/y;
const ATTR_VALUE = /\s*=\s*("([^"]*)"|'([^']*)')/y;
const CLOSE = /<\/([A-Za-z_][\w.:-]*)\s*>/y;
const DOCTYPE = /<!(DOCTYPE|ENTITY)/iy;

/** Sticky match at `at` without copying the source. */
function matchAt(re: RegExp, src: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(src);
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]+);/g, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return Object.hasOwn(ENTITIES, body) ? (ENTITIES[body] as string) : whole;
  });
}

class Reader {
  private pos = 0;
  /** Offsets of every newline, for O(log n) line lookups. */
  private readonly newlines: number[] = [];
  constructor(private readonly src: string) {
    for (let i = src.indexOf("\n"); i >= 0; i = src.indexOf("\n", i + 1)) this.newlines.push(i);
  }

  fail(message: string, at = this.pos): never {
    const line = this.line(at);
    throw new XmlError(message, line, at - (line > 1 ? (this.newlines[line - 2] as number) : -1));
  }
  /** 1-based line of an offset: one more than the number of newlines before it. */
  line(at = this.pos): number {
    let [lo, hi] = [0, this.newlines.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.newlines[mid] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }

  /** Skips the prolog's declarations, comments and whitespace; refuses DOCTYPE. */
  private skipMisc(): void {
    for (;;) {
      const ws = matchAt(WS, this.src, this.pos)?.[0] ?? "";
      if (ws !== "") this.pos += ws.length;
      else if (this.src.startsWith("<?", this.pos)) this.skipPast("?>", "processing instruction");
      else if (this.src.startsWith("<!--", this.pos)) this.skipPast("-->", "comment");
      else if (matchAt(DOCTYPE, this.src, this.pos)) this.fail("DOCTYPE and ENTITY declarations are not allowed");
      else return;
    }
  }
  private skipPast(end: string, what: string): void {
    const found = this.src.indexOf(end, this.pos);
    if (found < 0) this.fail(`Unterminated ${what}`);
    this.pos = found + end.length;
  }

  document(): XmlElement {
    this.skipMisc();
    if (this.pos >= this.src.length) this.fail("No root element");
    if (this.src[this.pos] !== "<" || !matchAt(NAME, this.src, this.pos + 1)) this.fail("Expected the root element");
    const root = this.element(0);
    this.skipMisc();
    if (this.pos < this.src.length) this.fail("Content after the root element");
    return root;
  }

  private attributes(tagStart: number): Record<string, string> {
    const attrs = Object.create(null) as Record<string, string>;
    for (;;) {
      const ws = matchAt(WS, this.src, this.pos)?.[0] ?? "";
      this.pos += ws.length;
      if (this.src.startsWith(">", this.pos) || this.src.startsWith("/>", this.pos)) return attrs;
      if (this.pos >= this.src.length) this.fail("Unterminated start tag", tagStart);
      const name = matchAt(NAME, this.src, this.pos)?.[0];
      if (!name || ws === "") this.fail("Malformed attribute");
      const value = matchAt(ATTR_VALUE, this.src, this.pos + name.length);
      if (!value) this.fail(`Attribute "${name}" needs a quoted value`);
      if (name in attrs) this.fail(`Duplicate attribute "${name}"`);
      attrs[name] = decode(value[2] ?? value[3] ?? "");
      this.pos += name.length + value[0].length;
    }
  }

  private element(depth: number): XmlElement {
    if (depth > MAX_DEPTH) this.fail("Elements nest too deeply");
    const start = this.pos;
    this.pos += 1;
    const name = matchAt(NAME, this.src, this.pos)?.[0] as string;
    this.pos += name.length;
    const el: XmlElement = {
      type: "element",
      name,
      attributes: this.attributes(start),
      children: [],
      line: this.line(start),
    };
    if (this.src.startsWith("/>", this.pos)) {
      this.pos += 2;
      return el;
    }
    this.pos += 1;
    this.content(el, depth, start);
    return el;
  }

  private content(el: XmlElement, depth: number, start: number): void {
    let text = "";
    const flush = () => {
      if (text !== "") el.children.push({ type: "text", text: decode(text) });
      text = "";
    };
    for (;;) {
      const next = this.src.indexOf("<", this.pos);
      if (next < 0) this.fail(`Element <${el.name}> opened on line ${el.line} is never closed`, start);
      text += this.src.slice(this.pos, next);
      this.pos = next;
      const at = (prefix: string) => this.src.startsWith(prefix, next);
      if (at("</")) {
        flush();
        const close = matchAt(CLOSE, this.src, next);
        if (!close) this.fail("Malformed closing tag");
        if (close[1] !== el.name)
          this.fail(`Closing tag </${close[1]}> does not match <${el.name}> opened on line ${el.line}`);
        this.pos += close[0].length;
        return;
      }
      if (at("<!--")) this.skipPast("-->", "comment");
      else if (at("<![CDATA[")) {
        const end = this.src.indexOf("]]>", next);
        if (end < 0) this.fail("Unterminated CDATA section");
        flush();
        el.children.push({ type: "text", text: this.src.slice(next + 9, end) });
        this.pos = end + 3;
      } else if (matchAt(DOCTYPE, this.src, next)) this.fail("DOCTYPE and ENTITY declarations are not allowed");
      else if (at("<?")) this.skipPast("?>", "processing instruction");
      else if (matchAt(NAME, this.src, next + 1)) {
        flush();
        el.children.push(this.element(depth + 1));
      } else {
        text += "<";
        this.pos += 1;
      }
    }
  }
}

/** Parses an XML document into its root element; throws {@link XmlError} with line and column. */
export function parseXml(source: string): XmlElement {
  if (source.length > MAX_XML_LENGTH) throw new XmlError(`Document larger than ${MAX_XML_LENGTH} characters`, 1, 1);
  return new Reader(source).document();
}

/** Child elements, optionally only those named `name`. */
export function children(el: XmlElement, name?: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === "element" && (name === undefined || c.name === name));
}

/** The first child element named `name`. */
export function child(el: XmlElement, name: string): XmlElement | undefined {
  return children(el, name)[0];
}

/** All text inside an element (descendants included), trimmed. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return "";
  const all = (n: XmlNode): string => (n.type === "text" ? n.text : n.children.map(all).join(""));
  return all(el).trim();
}

/** Trimmed text of the first child named `name` ("" when absent). */
export function childText(el: XmlElement, name: string): string {
  return textOf(child(el, name));
}
