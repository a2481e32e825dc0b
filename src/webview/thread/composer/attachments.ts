/**
 * Images pasted or dropped into the prompt box: read as base64, a 256 px JPEG preview made with a canvas, shown
 * as thumbnails above the text with a remove button. The host checks type and size again on send.
 */
import type { WirePart } from "./protocol";

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const MAX_BYTES = 5 * 1024 * 1024;
const THUMB_PX = 256;

export interface Attachment {
  name: string;
  data: string;
  thumb?: string;
}

const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(",") + 1);

function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error("could not read the image"));
    r.readAsDataURL(file);
  });
}

/** A JPEG preview no larger than THUMB_PX on its long side, or undefined when the browser cannot draw it. */
async function thumbnail(file: Blob): Promise<string | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, THUMB_PX / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL("image/jpeg", 0.8);
  } catch {
    return undefined;
  }
}

export class Attachments {
  readonly el: HTMLDivElement;
  #items: Attachment[] = [];

  constructor(
    parent: HTMLElement,
    private readonly onChange: () => void,
  ) {
    this.el = document.createElement("div");
    this.el.className = "cmp-attachments";
    this.el.hidden = true;
    parent.appendChild(this.el);
    this.el.addEventListener("click", (e) => {
      const btn = (e.target as HTMLElement).closest<HTMLElement>("button[data-remove]");
      if (!btn) return;
      this.#items.splice(Number(btn.dataset.remove), 1);
      this.#render();
      this.onChange();
    });
  }

  get count(): number {
    return this.#items.length;
  }

  /** Adds image files; returns a message for each file that was refused. */
  async add(files: readonly File[]): Promise<string[]> {
    const refused: string[] = [];
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type)) {
        refused.push(`${file.name || "the pasted file"} is not a PNG, JPEG, GIF or WebP image`);
        continue;
      }
      if (file.size > MAX_BYTES) {
        refused.push(`${file.name || "the image"} is ${(file.size / 1048576).toFixed(1)} MB; the limit is 5 MB`);
        continue;
      }
      const [dataUrl, thumb] = await Promise.all([readDataUrl(file), thumbnail(file)]);
      const ext = file.type.split("/")[1] === "jpeg" ? "jpg" : file.type.split("/")[1];
      this.#items.push({
        name: file.name || `pasted-image-${this.#items.length + 1}.${ext}`,
        data: base64Of(dataUrl),
        ...(thumb ? { thumb: base64Of(thumb) } : {}),
      });
    }
    this.#render();
    this.onChange();
    return refused;
  }

  parts(): WirePart[] {
    return this.#items.map((a) => ({
      type: "image",
      name: a.name,
      data: a.data,
      ...(a.thumb ? { thumb: a.thumb } : {}),
    }));
  }

  set(parts: readonly WirePart[]): void {
    this.#items = parts.flatMap((p) =>
      p.type === "image" ? [{ name: p.name, data: p.data, ...(p.thumb ? { thumb: p.thumb } : {}) }] : [],
    );
    this.#render();
  }

  clear(): void {
    this.#items = [];
    this.#render();
  }

  #render(): void {
    this.el.hidden = !this.#items.length;
    this.el.textContent = "";
    this.#items.forEach((a, i) => {
      const item = document.createElement("div");
      item.className = "cmp-attachment";
      item.title = a.name;
      const img = document.createElement("img");
      img.src = `data:image/jpeg;base64,${a.thumb ?? ""}`;
      if (!a.thumb) img.src = `data:${a.name.endsWith(".png") ? "image/png" : "image/jpeg"};base64,${a.data}`;
      img.alt = a.name;
      const remove = document.createElement("button");
      remove.className = "icon";
      remove.dataset.remove = String(i);
      remove.title = `Remove ${a.name}`;
      remove.setAttribute("aria-label", `Remove ${a.name}`);
      remove.innerHTML = `<span class="codicon codicon-close"></span>`;
      item.append(img, remove);
      this.el.appendChild(item);
    });
  }
}

/** Image files of a paste or drop. */
export function imageFiles(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((f) => f.type.startsWith("image/"));
}
