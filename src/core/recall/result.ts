/** The shape of a search answer (markdown renders it, JSON is it), apart from the engine that computes it. */
import type { Why } from "./rank";
import type { EvidenceWindow } from "./windows";

export type Mode = "all" | "any" | "alternatives";

export interface SessionResult {
  id: string;
  source: string;
  path: string;
  cwd: string | null;
  repo: string | null;
  title: string | null;
  intent: string | null;
  started_at: string | null;
  last_at: string | null;
  why: Why;
  windows: EvidenceWindow[];
}

export interface SearchResult {
  schema_version: number;
  status: "ok" | "no_match" | "empty_query";
  query: string;
  mode: Mode;
  fallback: boolean;
  scope: { kind: "repo" | "global"; repo: string | null };
  sessions: SessionResult[];
  /** How many sessions matched before `limit` cut the list. */
  matched_sessions: number;
  /** True when a budget cut a message or dropped context. */
  truncated: boolean;
  elapsed_ms: number;
}
