/**
 * HTML shell for our webviews: strict CSP (default-src 'none'; scripts only with a per-load nonce from
 * crypto), styles/fonts only from the extension's own dist/ and media/ folders via asWebviewUri.
 */
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist"), vscode.Uri.joinPath(extensionUri, "media")],
  };
}

export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  opts: { script: string; css: string; title: string; body: string },
): string {
  const nonce = randomBytes(16).toString("base64");
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri("dist", "codicons", "codicon.css")}">
<link rel="stylesheet" href="${uri("media", opts.css)}">
<title>${opts.title}</title>
</head>
<body>
${opts.body}
<script nonce="${nonce}" src="${uri("dist", "webview", opts.script)}"></script>
</body>
</html>`;
}

export const THREAD_BODY = `<header id="header">
  <div class="title-row"><h1 id="title" class="title">Thread</h1><span id="agent" class="muted agent"></span><span id="login" class="muted login" hidden></span><button id="login-action" type="button" class="secondary login-action" hidden></button><button id="rename" type="button" class="icon-button" title="Rename thread" aria-label="Rename thread" hidden><span class="codicon codicon-edit" aria-hidden="true"></span></button><span id="thread-actions" class="thread-actions"></span><span id="status" class="status" role="status"></span></div>
  <div class="meta-row"><span id="usage" class="muted"></span><span id="pickers"></span></div>
  <div id="who-decides" class="who-decides muted" role="status" hidden></div>
  <div id="ops" class="ops" hidden></div>
</header>
<button id="more" type="button" class="secondary" hidden></button>
<main id="entries"></main>
<footer id="footer" hidden></footer>`;
