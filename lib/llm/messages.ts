import "server-only";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import * as z from "zod";

/** A tool call with parsed arguments (only valid calls carry `args`). */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * The message type of lib/llm (engine and designer use it instead of LangChain's classes).
 * Assistant messages may carry tool calls; each tool message answers one call by `toolCallId`
 * (its optional `name` is the tool's name).
 */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; content: string; toolCallId: string; name?: string };

/** zod schema of ChatMessage, for messages crossing an edge (job data, stored transcripts). */
export const chatMessageSchema: z.ZodType<ChatMessage> = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string(),
    toolCalls: z
      .array(z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }))
      .optional(),
  }),
  z.object({ role: z.literal("tool"), content: z.string(), toolCallId: z.string(), name: z.string().optional() }),
]);

/** Converts lib/llm messages to LangChain messages. */
export function toLangChain(messages: ChatMessage[]): BaseMessage[] {
  return messages.map((m) => {
    switch (m.role) {
      case "system":
        return new SystemMessage(m.content);
      case "user":
        return new HumanMessage(m.content);
      case "assistant":
        return new AIMessage({
          content: m.content,
          tool_calls: (m.toolCalls ?? []).map((t) => ({
            id: t.id,
            name: t.name,
            args: t.args,
            type: "tool_call" as const,
          })),
        });
      case "tool":
        return new ToolMessage({ content: m.content, tool_call_id: m.toolCallId, ...(m.name ? { name: m.name } : {}) });
      default: {
        const never: never = m;
        throw new Error(`unknown message role: ${JSON.stringify(never)}`);
      }
    }
  });
}

/** Text of LangChain content (string or content blocks). */
export function contentToText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (typeof b === "string" ? b : b && typeof b === "object" && "text" in b ? String(b.text) : ""))
      .join("");
  }
  return "";
}
