/**
 * B7's dataset: small questions whose exact answer needs a computation the agent has no tool for.
 * Four capabilities, three questions each; the first question of each is the "earlier run" that
 * fills the tool box, the other two are measured in both arms. `expected` is checked in the run's
 * answer as text, so a real model's prose answer counts when it carries the right value.
 */
export interface Capability {
  key: string;
  /** What an agent lacking it asks create_tool for (the scripted agent's words). */
  request: string;
  /** A word of the question that tells the scripted agent which tool to ask for. */
  keyword: string;
  /** The tool the scripted model writes: name, description, schema, tests and code (drafts in order). */
  drafts: Array<{ code: string; tests: Array<{ input: Record<string, unknown>; expected: unknown }> }>;
  tool: { name: string; description: string; argsSchema: Record<string, unknown> };
  /** The key of the tool's result object (the scripted agent answers once it sees it). */
  resultKey: string;
  tasks: Array<{ prompt: string; args: Record<string, unknown>; expected: string }>;
}

const obj = (props: Record<string, string>) => ({
  type: "object",
  properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])),
  required: Object.keys(props),
});

export const capabilities: Capability[] = [
  {
    key: "fahrenheit",
    request: "Convert a temperature from Celsius to Fahrenheit",
    keyword: "Fahrenheit",
    tool: {
      name: "celsius_to_fahrenheit",
      description: "Converts a temperature from Celsius to Fahrenheit",
      argsSchema: obj({ celsius: "number" }),
    },
    drafts: [
      {
        code: "function run(input) { return { fahrenheit: input.celsius * 9 / 5 + 32 } }",
        tests: [
          { input: { celsius: 100 }, expected: { fahrenheit: 212 } },
          { input: { celsius: -40 }, expected: { fahrenheit: -40 } },
        ],
      },
    ],
    resultKey: "fahrenheit",
    tasks: [
      { prompt: "What is 100 degrees Celsius in Fahrenheit?", args: { celsius: 100 }, expected: "212" },
      { prompt: "What is 25 degrees Celsius in Fahrenheit?", args: { celsius: 25 }, expected: "77" },
      { prompt: "What is -10 degrees Celsius in Fahrenheit?", args: { celsius: -10 }, expected: "14" },
    ],
  },
  {
    key: "vowels",
    request: "Count the vowels in a text",
    keyword: "vowels",
    tool: { name: "count_vowels", description: "Counts the vowels in a text", argsSchema: obj({ text: "string" }) },
    drafts: [
      {
        code: "function run(input) { return { vowels: (String(input.text).match(/[aeiou]/gi) || []).length } }",
        tests: [
          { input: { text: "banana" }, expected: { vowels: 3 } },
          { input: { text: "sky" }, expected: { vowels: 0 } },
        ],
      },
    ],
    resultKey: "vowels",
    tasks: [
      { prompt: "How many vowels are in 'banana split'?", args: { text: "banana split" }, expected: "4" },
      { prompt: "How many vowels are in 'workflow engine'?", args: { text: "workflow engine" }, expected: "5" },
      { prompt: "How many vowels are in 'queueing'?", args: { text: "queueing" }, expected: "5" },
    ],
  },
  {
    key: "slug",
    request: "Turn a title into a URL slug",
    keyword: "slug",
    tool: { name: "title_slug", description: "Turns a title into a URL slug", argsSchema: obj({ title: "string" }) },
    drafts: [
      // the first draft keeps punctuation: its test fails and the fix round corrects it
      {
        code: "function run(input) { return { slug: String(input.title).toLowerCase().split(' ').join('-') } }",
        tests: [
          { input: { title: "Hello World" }, expected: { slug: "hello-world" } },
          { input: { title: "Ten Tips, Fast!" }, expected: { slug: "ten-tips-fast" } },
        ],
      },
      {
        code: "function run(input) { return { slug: String(input.title).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') } }",
        tests: [
          { input: { title: "Hello World" }, expected: { slug: "hello-world" } },
          { input: { title: "Ten Tips, Fast!" }, expected: { slug: "ten-tips-fast" } },
        ],
      },
    ],
    resultKey: "slug",
    tasks: [
      {
        prompt: "Give the URL slug of the title 'Hello Again'.",
        args: { title: "Hello Again" },
        expected: "hello-again",
      },
      {
        prompt: "Give the URL slug of the title 'Weft: Agents at Work'.",
        args: { title: "Weft: Agents at Work" },
        expected: "weft-agents-at-work",
      },
      {
        prompt: "Give the URL slug of the title 'Why Tools? Why Now!'.",
        args: { title: "Why Tools? Why Now!" },
        expected: "why-tools-why-now",
      },
    ],
  },
  {
    key: "days",
    request: "Count the days between two dates",
    keyword: "days between",
    tool: {
      name: "days_between",
      description: "Counts the days between two dates",
      argsSchema: obj({ from: "string", to: "string" }),
    },
    drafts: [
      {
        code: "function run(input) { return { days: Math.round((Date.parse(input.to) - Date.parse(input.from)) / 86400000) } }",
        tests: [
          { input: { from: "2026-01-01", to: "2026-01-31" }, expected: { days: 30 } },
          { input: { from: "2024-02-01", to: "2024-03-01" }, expected: { days: 29 } },
        ],
      },
    ],
    resultKey: "days",
    tasks: [
      {
        prompt: "How many days between 2026-01-01 and 2026-03-01?",
        args: { from: "2026-01-01", to: "2026-03-01" },
        expected: "59",
      },
      {
        prompt: "How many days between 2026-12-01 and 2026-12-25?",
        args: { from: "2026-12-01", to: "2026-12-25" },
        expected: "24",
      },
      {
        prompt: "How many days between 2025-06-15 and 2026-06-15?",
        args: { from: "2025-06-15", to: "2026-06-15" },
        expected: "365",
      },
    ],
  },
];

/** The scripted model's part: an agent that asks for the tool it lacks, calls it, and answers with its result; the tools' drafts. */
export function scriptedRules(marker: string) {
  return capabilities.flatMap((c) => [
    {
      id: `answer.${c.key}`,
      priority: 30,
      match: { system: marker, lastRole: "tool" as const, anyMessage: `"${c.resultKey}":` },
      reply: { text: "The answer: {{lastTool}}" },
    },
    ...c.tasks.map((t, i) => ({
      id: `call.${c.key}.${i}`,
      priority: 20,
      match: { system: marker, lastRole: "tool" as const, tools: [c.tool.name], lastUser: t.prompt },
      reply: { toolCalls: [{ name: c.tool.name, args: t.args }] },
    })),
    {
      id: `ask.${c.key}`,
      priority: 10,
      match: { system: marker, lastRole: "user" as const, anyMessage: c.keyword },
      reply: { toolCalls: [{ name: "create_tool", args: { request: c.request } }] },
    },
    {
      id: `write.${c.key}`,
      match: { schema: "write_tool", anyMessage: c.request },
      // every creation goes through the same drafts (a fix round where the first fails)
      then: "cycle" as const,
      sequence: c.drafts.map((d) => ({ json: { ...c.tool, ...d } })),
    },
  ]);
}
