import { describe, expect, it } from "vitest";
import { fieldSchema, type Field } from "@/lib/workflow/schema";
import { webhookInputs } from "./body";

const fields: Field[] = [
  fieldSchema.parse({ key: "topic", type: "string", required: true }),
  fieldSchema.parse({ key: "count", type: "number" }),
  fieldSchema.parse({ key: "event", type: "json" }),
  fieldSchema.parse({ key: "raw", type: "text" }),
];
const json = (value: unknown) => ({ contentType: "application/json", text: JSON.stringify(value) });

describe("webhookInputs, fields mode", () => {
  it("takes the declared keys of a JSON object and leaves the sender's other keys out", () => {
    const r = webhookInputs(
      fields,
      "fields",
      null,
      json({ topic: "cats", count: 3, action: "opened", repository: { id: 1 } }),
    );
    expect(r).toEqual({ ok: true, inputs: { topic: "cats", count: 3 } });
  });

  it("reads form fields, and JSON sent without a content type or as +json", () => {
    expect(
      webhookInputs(fields, "fields", null, {
        contentType: "application/x-www-form-urlencoded; charset=utf-8",
        text: "topic=dogs&count=2&x=1",
      }),
    ).toEqual({ ok: true, inputs: { topic: "dogs", count: "2" } });
    expect(webhookInputs(fields, "fields", null, { contentType: null, text: ' {"topic":"owls"}' })).toEqual({
      ok: true,
      inputs: { topic: "owls" },
    });
    expect(
      webhookInputs(fields, "fields", null, { contentType: "application/vnd.api+json", text: '{"topic":"elk"}' }),
    ).toEqual({ ok: true, inputs: { topic: "elk" } });
  });

  it("answers an empty body with no inputs (startRun then names the required ones)", () => {
    expect(webhookInputs(fields, "fields", null, { contentType: "application/json", text: "  " })).toEqual({
      ok: true,
      inputs: {},
    });
  });

  it("refuses broken JSON, a JSON array and plain text, naming the fields it wants", () => {
    expect(webhookInputs(fields, "fields", null, { contentType: "application/json", text: "{topic:" })).toEqual({
      ok: false,
      message: expect.stringMatching(/^The body is not valid JSON/),
    });
    const arr = webhookInputs(fields, "fields", null, json([1, 2]));
    expect(arr.ok).toBe(false);
    expect(!arr.ok && arr.message).toContain("(topic, count, event, raw)");
    expect(webhookInputs(fields, "fields", null, { contentType: "text/plain", text: "hello" }).ok).toBe(false);
  });
});

describe("webhookInputs, payload mode", () => {
  it("puts the parsed body into a json field and the body's text into a text field", () => {
    expect(webhookInputs(fields, "payload", "event", json({ action: "opened", n: [1] }))).toEqual({
      ok: true,
      inputs: { event: { action: "opened", n: [1] } },
    });
    expect(webhookInputs(fields, "payload", "event", { contentType: "text/plain", text: "ping" })).toEqual({
      ok: true,
      inputs: { event: "ping" },
    });
    const text = '{ "pretty":  true }';
    expect(webhookInputs(fields, "payload", "raw", { contentType: "application/json", text })).toEqual({
      ok: true,
      inputs: { raw: text },
    });
  });

  it("leaves the field out for an empty body, and refuses a field the workflow no longer has", () => {
    expect(webhookInputs(fields, "payload", "event", { contentType: null, text: "" })).toEqual({
      ok: true,
      inputs: {},
    });
    const gone = webhookInputs(fields, "payload", "body", json({}));
    expect(gone).toEqual({ ok: false, message: expect.stringContaining('"body"') });
  });
});
