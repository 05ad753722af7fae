import * as z from "zod";
import { modelRefSchema, nodeKinds, toolRefSchema } from "@/lib/workflow/schema";

/** MIME type of the palette's drag payload (HTML5 drag and drop onto the canvas). */
export const PALETTE_MIME = "application/x-weft-palette";

/**
 * The saved agent's fields the new node's agent spec starts from (a copy: the workflow stays
 * self-contained and versionable; `savedAgentId` records where it came from).
 */
export const savedAgentSpecSchema = z.object({
  description: z.string().default(""),
  instructions: z.string().default(""),
  model: modelRefSchema.optional(),
  tools: z.array(toolRefSchema).default([]),
});
export type SavedAgentSpec = z.infer<typeof savedAgentSpecSchema>;

/** What the palette drags: a node kind, or a saved agent (becomes an agent node referring to it). */
export const paletteItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("kind"), kind: z.enum(nodeKinds) }),
  z.object({
    type: z.literal("saved-agent"),
    agentId: z.string().min(1),
    name: z.string(),
    spec: savedAgentSpecSchema.optional(),
  }),
]);
export type PaletteItem = z.infer<typeof paletteItemSchema>;

/** Parses a drag payload; null when it is not ours (text dragged from elsewhere). */
export function parsePaletteItem(raw: string): PaletteItem | null {
  try {
    const parsed = paletteItemSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
