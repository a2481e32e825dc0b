/**
 * `acp-threads run --thread ID --review FILE`: FILE holds `path:line: comment` / `path:start-end: comment` lines
 * about the thread's workspace. Every line is read, checked (inside the workspace, within the file) and its code
 * quoted before any agent starts: one bad line is a usage error naming it, and nothing is sent. The review goes
 * as the first turn (the first PROMPT, if any, is its opening line), each quote an embedded resource when the
 * agent takes embedded context, fenced text otherwise (core/prompt/review.ts).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { AcpThreadsError, errorMessage } from "../core/errors";
import type { ContextItem, PromptPart } from "../core/model/context";
import type { PromptCaps } from "../core/prompt/blocks";
import { textWithContext } from "../core/prompt/blocks";
import { parseReview, reviewComments, reviewPromptParts, type ReviewComment } from "../core/prompt/review";

export interface ReviewRequest {
  /** The file as given (named in errors). */
  file: string;
  comments: ReviewComment[];
  /** The workspace the paths are relative to (the thread's folder). */
  root: string;
}

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** Reads and checks the review file (`file` relative to `cwd`) against the workspace `root`. */
export function readReview(file: string, cwd: string, root: string): ReviewRequest {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (err) {
    throw new AcpThreadsError("usage", `--review ${file}: cannot read it (${errorMessage(err)})`);
  }
  try {
    return { file, root, comments: reviewComments(parseReview(text, file), root, readText, file) };
  } catch (err) {
    // a path outside the workspace is the caller's to fix, like any bad line (exit 2, nothing sent)
    if (err instanceof AcpThreadsError && err.code === "path_outside_workspace")
      throw new AcpThreadsError("usage", err.message, { reason: err.code }, { cause: err });
    throw err;
  }
}

/** The review turn's prompt: the review (with `intro` as its opening line when given), then any `--file` context. */
export function reviewTurnParts(
  r: ReviewRequest,
  caps: PromptCaps | null | undefined,
  intro: string,
  context: readonly ContextItem[] = [],
): PromptPart[] {
  const parts = reviewPromptParts(r.comments, {
    embedded: caps?.embeddedContext === true,
    root: r.root,
    ...(intro.trim() ? { intro } : {}),
  });
  return context.length ? [...parts, ...textWithContext("\n", context)] : parts;
}
