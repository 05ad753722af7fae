import { httpRequest, mathEval, runJavascript } from "./basic";
import { kbAnswer, kbQuery, kbSave } from "./kb";
import { webPageMarkdown } from "./markdown";
import { webSearch } from "./search";
import { regexExtract, textJoin, textSplit, wordCount } from "./text";
import type { BuiltinTool } from "./types";

export type { BuiltinTool, ToolContext } from "./types";

/** Built-in tools by name; these names are reserved (user tools cannot take them). */
export const builtinTools: ReadonlyMap<string, BuiltinTool> = new Map(
  [
    httpRequest,
    runJavascript,
    mathEval,
    webSearch,
    webPageMarkdown,
    wordCount,
    regexExtract,
    textSplit,
    textJoin,
    kbSave,
    kbQuery,
    kbAnswer,
  ].map((t) => [t.name, t]),
);
