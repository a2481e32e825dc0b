/**
 * What this window is after a reload, to the thread host: a new client with the window's folders and its own
 * hosted state (the test disposes it). It connects once the host is looked for (`link.check()`).
 */
import { HostedThreads } from "../../../src/vscode/host/hosted-threads";
import { fsServer, serveOffer } from "../../../src/vscode/host/serve-fs";
import type { Hub } from "../../../src/vscode/hub";

export function reloadedWindow(hub: Hub): HostedThreads {
  return new HostedThreads(
    {
      home: hub.home,
      script: "",
      idleMinutes: () => 10,
      client: "this window, reloaded",
      logger: hub.log.logger,
      serve: { offer: serveOffer, answer: fsServer(hub.files, serveOffer) },
    },
    hub.broker,
    hub.context.workspaceState,
  );
}
