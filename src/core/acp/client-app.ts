/**
 * The client side of the connection as an SDK 2.x app: one handler per ACP area, each delegating to its
 * module. Requests we do not serve get the SDK's "Method not found".
 */
import { client, methods, type ClientApp } from "@agentclientprotocol/sdk";
import { AUTH_STATUS_METHOD, parseAuthStatus } from "./auth-status";
import { handleCompleteElicitation, handleCreateElicitation } from "./elicitation-handler";
import { handleReadTextFile, handleWriteTextFile } from "./fs-handler";
import { handleRequestPermission } from "./permission-handler";
import { asRequest } from "./request-errors";
import type { EngineContext } from "./session-state";
import type { TerminalManager } from "./terminal-handler";

export const CLIENT_NAME = "acp-threads";

export function buildClientApp(
  ctx: EngineContext,
  terminals: TerminalManager,
  onSessionUpdate: (params: unknown) => void,
): ClientApp {
  return client({ name: CLIENT_NAME })
    .onNotification(methods.client.session.update, ({ params }) => onSessionUpdate(params))
    .onNotification(AUTH_STATUS_METHOD, { parse: (p) => p }, ({ params }) => {
      const status = parseAuthStatus(params);
      if (status) ctx.authStatusChanged?.(status);
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
      asRequest(() => handleRequestPermission(ctx, params, signal)),
    )
    .onRequest(methods.client.elicitation.create, ({ params, signal }) =>
      asRequest(() => handleCreateElicitation(ctx, params, signal)),
    )
    .onNotification(methods.client.elicitation.complete, ({ params }) => handleCompleteElicitation(ctx, params))
    .onRequest(methods.client.fs.readTextFile, ({ params }) => asRequest(() => handleReadTextFile(ctx, params)))
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => asRequest(() => handleWriteTextFile(ctx, params)))
    .onRequest(methods.client.terminal.create, ({ params }) => asRequest(async () => terminals.create(params)))
    .onRequest(methods.client.terminal.output, ({ params }) => asRequest(async () => terminals.output(params)))
    .onRequest(methods.client.terminal.waitForExit, ({ params, signal }) =>
      asRequest(() => terminals.waitForExit(params, signal)),
    )
    .onRequest(methods.client.terminal.kill, ({ params }) => asRequest(async () => terminals.kill(params)))
    .onRequest(methods.client.terminal.release, ({ params }) => asRequest(async () => terminals.release(params)));
}
