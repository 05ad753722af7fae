import { handleMcpRequest } from "@/lib/mcp/server/server";

/** Weft's MCP endpoint (streamable HTTP, stateless, API-token auth): the owner's approved tools. */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleMcpRequest(request);
export const GET = (request: Request) => handleMcpRequest(request);
export const DELETE = (request: Request) => handleMcpRequest(request);
