/** The thread panel as the composer sees it. */
import type { HostMessage } from "../../webview/thread/protocol";

export interface ComposerPanel {
  readonly threadId: string;
  post(m: HostMessage): void;
}
