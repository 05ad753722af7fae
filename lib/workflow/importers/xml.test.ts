import { describe, expect, it } from "vitest";
import { child, children, childText, parseXml, XmlError } from "./xml";

describe("parseXml", () => {
  it("reads elements, attributes, text, CDATA, comments and the prolog", () => {
    const root = parseXml(`<?xml version="1.0"?>
<!-- a form -->
<workflow kind='demo' id="1">
  <name>wiki &amp; co &#65;&#x42;</name>
  <agent category="new"/>
  <task><![CDATA[use <b> & stuff]]></task>
</workflow>`);
    expect(root.name).toBe("workflow");
    expect({ ...root.attributes }).toEqual({ kind: "demo", id: "1" });
    expect(childText(root, "name")).toBe("wiki & co AB");
    expect(child(root, "agent")?.attributes.category).toBe("new");
    expect(childText(root, "task")).toBe("use <b> & stuff");
    expect(children(root).map((c) => c.name)).toEqual(["name", "agent", "task"]);
    expect(child(root, "task")?.line).toBe(6);
  });

  it("is forgiving about model-written text", () => {
    const root = parseXml("<c>If quality score < threshold && R&D <= 3</c>");
    expect(childText({ ...root, children: [root] }, "c")).toBe("If quality score < threshold && R&D <= 3");
  });

  it("refuses DOCTYPE and entity declarations (no entity expansion)", () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>';
    expect(() => parseXml(bomb)).toThrow("DOCTYPE and ENTITY declarations are not allowed (line 1, column 22)");
    expect(
      childText({ type: "element", name: "x", attributes: {}, children: [parseXml("<a>&lol2;</a>")], line: 1 }, "a"),
    ).toBe("&lol2;");
  });

  it("reports structural errors with line and column", () => {
    const cases: [string, string][] = [
      ["<a>\n  <b>\n</a>", "Closing tag </a> does not match <b> opened on line 2 (line 3, column 1)"],
      ["<a>\n<b>text", "Element <b> opened on line 2 is never closed (line 2, column 1)"],
      ["<a x=1></a>", 'Attribute "x" needs a quoted value (line 1, column 4)'],
      ['<a x="1" x="2"></a>', 'Duplicate attribute "x" (line 1, column 10)'],
      ["<a></a><b></b>", "Content after the root element (line 1, column 8)"],
      ["", "No root element (line 1, column 1)"],
      ["<a><!-- never", "Unterminated comment (line 1, column 4)"],
    ];
    for (const [src, message] of cases) {
      expect(() => parseXml(src), src).toThrow(XmlError);
      expect(() => parseXml(src), src).toThrow(message);
    }
  });

  it("keeps __proto__ attributes as plain data", () => {
    const root = parseXml('<a __proto__="x" constructor="y"/>');
    expect(root.attributes.__proto__).toBe("x");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("bounds nesting depth", () => {
    expect(() => parseXml("<a>".repeat(500) + "</a>".repeat(500))).toThrow("Elements nest too deeply");
  });
});

describe("parseXml performance", () => {
  it("parses a large flat document quickly", () => {
    const big = `<root>\n${'<item a="1">text &amp; more</item>\n'.repeat(10000)}</root>`;
    const t0 = performance.now();
    expect(parseXml(big).children.filter((c) => c.type === "element").length).toBe(10000);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
