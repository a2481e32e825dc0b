/**
 * The folders a run may add to its session (`DetachedRun.roots`, #35): only ones the asking client said are its
 * own (`hello`'s `serves.roots`: an editor's workspace folders). Roots widen what the agent reaches (its path
 * guard, `additionalDirectories`, the sandbox's writable folders), so a run naming any other folder is refused
 * before its agent starts, as the window's own policy never gives a session a folder outside its workspace.
 */
import { AcpThreadsError } from "../errors";
import { covers, offeredGuard } from "./editor-serve";
import type { ServeOffer } from "./protocol";

export async function assertRootsOffered(roots: unknown, offer: ServeOffer | undefined): Promise<void> {
  if (roots === undefined) return;
  const named = Array.isArray(roots) ? roots : [roots];
  if (!named.length) return;
  const guard = offeredGuard(offer);
  const ok = guard && named.every((r) => typeof r === "string") && (await covers(guard, ...(named as string[])));
  if (!ok)
    throw new AcpThreadsError(
      "path_outside_workspace",
      `the run's folders (${named.map(String).join(", ")}) are not all inside this client's folders (${offer?.roots?.join(", ") || "none said"}): refused`,
    );
}
