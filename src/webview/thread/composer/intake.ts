/**
 * What reaches the prompt box from outside the keyboard: images pasted or dropped (kept as attachments, refused
 * when the agent takes no images) and files or folders dropped from the explorer (handed to the host as URIs,
 * which answers with context chips).
 */
import { imageFiles, type Attachments } from "./attachments";
import type { ComposerMessage } from "./protocol";

export interface IntakeDeps {
  /** Whether the agent accepts images and its name, for the refusal notice. */
  caps(): { image: boolean; agentName: string } | undefined;
  notice(message: string, severity: "error" | "info"): void;
  post(m: ComposerMessage): void;
}

/** Wires paste on the box and drag-and-drop on the composer root. */
export function wireIntake(root: HTMLElement, box: HTMLElement, attachments: Attachments, deps: IntakeDeps): void {
  const failed = (err: unknown) =>
    deps.notice(`Could not attach: ${err instanceof Error ? err.message : String(err)}`, "error");
  const addImages = async (files: File[]): Promise<void> => {
    const caps = deps.caps();
    if (caps && !caps.image) return deps.notice(`${caps.agentName} does not accept images.`, "error");
    const refused = await attachments.add(files);
    if (refused.length) deps.notice(refused.join("; "), "error");
  };
  box.addEventListener("paste", (e) => {
    const files = imageFiles(e.clipboardData);
    if (!files.length) return;
    e.preventDefault();
    addImages(files).catch(failed);
  });
  root.addEventListener("dragover", (e) => e.preventDefault());
  root.addEventListener("drop", (e) => {
    e.preventDefault();
    const files = imageFiles(e.dataTransfer);
    if (files.length) return void addImages(files).catch(failed);
    const list = e.dataTransfer?.getData("application/vnd.code.uri-list") || e.dataTransfer?.getData("text/uri-list");
    const uris = (list ?? "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    if (uris.length) deps.post({ type: "dropUris", uris });
  });
}
