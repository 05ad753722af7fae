import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldsView } from "./json-view";

describe("FieldsView (a run's inputs and outputs)", () => {
  it("shows a text field as text, its line breaks kept rather than JSON-escaped, and other values as JSON", () => {
    const html = renderToStaticMarkup(
      <FieldsView value={{ article: 'Owls\n"hunt" at night', score: 7, meta: { ok: true } }} testId="run-outputs" />,
    );
    expect(html).toContain("<dt");
    expect(html).toContain(">article</dt>");
    expect(html).toContain("Owls\n&quot;hunt&quot; at night");
    expect(html).not.toContain("\\n");
    expect(html).toContain(">7</pre>");
    expect(html).toContain("&quot;ok&quot;: true");
  });

  it("says None for an empty object and falls back to JSON for anything else", () => {
    expect(renderToStaticMarkup(<FieldsView value={{}} />)).toContain("None.");
    expect(renderToStaticMarkup(<FieldsView value={[1, 2]} />)).toContain("[\n  1,\n  2\n]");
    expect(renderToStaticMarkup(<FieldsView value={undefined} />)).toContain("—");
  });
});
