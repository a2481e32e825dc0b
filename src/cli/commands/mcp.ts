/**
 * `acp-threads mcp`: a Model Context Protocol server over stdio (newline-delimited JSON-RPC 2.0) exposing recall.
 * Only the small subset an agent needs: initialize, ping, tools/list, tools/call.
 */
import { createInterface } from "node:readline";
import { command } from "../command";
import { EXIT, type CliIO } from "../io";
import { recallEngine } from "../recall/common";
import { callTool, TOOLS } from "../recall/mcp-tools";
import { VERSION } from "../../core/version";

const PROTOCOL_VERSION = "2025-06-18";

interface Request {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
}

export const main = command(
  { name: "mcp", synopsis: "", flags: {}, notes: "An MCP server on stdio; tools: recall, recall_recent." },
  ({ io }) => serve(io),
);

async function serve(io: CliIO): Promise<number> {
  // the warm recall process when one runs, else an index of its own, kept open for the agent's next call
  const recall = recallEngine(io, false);
  const send = (msg: unknown) => io.stdout.write(`${JSON.stringify(msg)}\n`);
  const reply = (id: Request["id"], result: unknown) => send({ jsonrpc: "2.0", id, result });
  const fail = (id: Request["id"], code: number, message: string) =>
    send({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });

  const handle = async (req: Request) => {
    const isNotification = req.id === undefined;
    switch (req.method) {
      case "initialize": {
        const asked = req.params?.protocolVersion;
        return reply(req.id, {
          protocolVersion: typeof asked === "string" ? asked : PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: "acp-threads-recall", version: VERSION },
        });
      }
      case "ping":
        return reply(req.id, {});
      case "tools/list":
        return reply(req.id, { tools: TOOLS });
      case "tools/call": {
        const name = String(req.params?.name ?? "");
        const args = (req.params?.arguments ?? {}) as Record<string, unknown>;
        try {
          const out = await callTool(recall, name, args, io.cwd);
          return reply(req.id, {
            content: [{ type: "text", text: out.text }],
            structuredContent: out.structured,
            isError: false,
          });
        } catch (err) {
          // tool failures are results the model can read, not protocol errors
          return reply(req.id, {
            content: [{ type: "text", text: err instanceof Error ? err.message : String(err) }],
            isError: true,
          });
        }
      }
      default:
        if (!isNotification) fail(req.id, -32601, `method not found: ${req.method}`);
    }
  };

  const rl = createInterface({ input: io.stdin, crlfDelay: Infinity });
  io.signal.addEventListener("abort", () => rl.close(), { once: true });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let req: Request;
    try {
      req = JSON.parse(line) as Request;
    } catch {
      fail(null, -32700, "parse error");
      continue;
    }
    if (typeof req !== "object" || req === null || typeof req.method !== "string") {
      fail((req as Request | null)?.id, -32600, "invalid request");
      continue;
    }
    await handle(req);
  }
  recall.close();
  return io.signal.aborted ? EXIT.interrupted : EXIT.ok;
}
