/**
 * Synthetic corpus for the recall bench, written in the real Codex rollout format (session_meta, turn_context,
 * response_item messages with their event_msg mirrors, function calls and outputs): half Chinese (`cjkShare`), Zipf-distributed
 * vocabularies, 40% tool messages of 200–1,700 chars, the rest 40–540 chars, sessions of 80 messages.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Deterministic PRNG so every run indexes the same text. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HAN =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞";
const LATIN = "abcdefghijklmnopqrstuvwxyz";

export interface Vocab {
  latin: string[];
  cjk: string[];
}

export function makeVocab(rand: () => number): Vocab {
  const latin = new Set<string>();
  while (latin.size < 30_000) {
    const len = 3 + Math.floor(rand() * 8);
    let w = "";
    for (let i = 0; i < len; i++) w += LATIN[Math.floor(rand() * 26)];
    latin.add(w);
  }
  const cjk = new Set<string>();
  while (cjk.size < 8_000) {
    const len = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < len; i++) w += HAN[Math.floor(rand() * HAN.length)];
    cjk.add(w);
  }
  return { latin: [...latin], cjk: [...cjk] };
}

/** Zipf-ish pick: rank ~ 1/u distribution, clamped to the vocabulary. */
function zipf(rand: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.pow(n, rand()) - 1));
}

function sentence(rand: () => number, v: Vocab, chars: number, cjkShare: number): string {
  const out: string[] = [];
  let len = 0;
  const chinese = rand() < cjkShare;
  while (len < chars) {
    const w = chinese ? v.cjk[zipf(rand, v.cjk.length)] : v.latin[zipf(rand, v.latin.length)];
    out.push(w);
    len += w.length + (chinese ? 0 : 1);
    if (chinese && rand() < 0.15) out.push("，");
  }
  return chinese ? out.join("") : out.join(" ");
}

const line = (ts: number, type: string, payload: unknown) =>
  JSON.stringify({ timestamp: new Date(ts).toISOString(), type, payload });

export interface Corpus {
  root: string;
  files: number;
  messages: number;
  bytes: number;
  repos: string[];
}

/** `cjkShare`: the share of messages written in Chinese (0.5 by default; 0 for an English-only corpus). */
export function writeCorpus(root: string, messages: number, seed = 7, cjkShare = 0.5): Corpus & { vocab: Vocab } {
  const rand = rng(seed);
  const vocab = makeVocab(rand);
  const perSession = 80;
  const sessions = Math.ceil(messages / perSession);
  const repos = Array.from({ length: 10 }, (_, i) => `/work/bench-repo-${i}`);
  let bytes = 0;
  let written = 0;
  const start = Date.UTC(2026, 9, 1);
  for (let s = 0; s < sessions; s++) {
    const ts0 = start + s * 600_000;
    const day = new Date(ts0);
    const dir = join(
      root,
      String(day.getUTCFullYear()),
      String(day.getUTCMonth() + 1).padStart(2, "0"),
      String(day.getUTCDate()).padStart(2, "0"),
    );
    mkdirSync(dir, { recursive: true });
    const id = `019a${s.toString(16).padStart(4, "0")}-0000-7000-8000-${s.toString(16).padStart(12, "0")}`;
    const cwd = repos[s % repos.length];
    const lines = [
      line(ts0, "session_meta", {
        id,
        timestamp: new Date(ts0).toISOString(),
        cwd,
        originator: "codex_cli_rs",
        cli_version: "0.169.0",
        source: "cli",
      }),
    ];
    lines.push(line(ts0, "turn_context", { cwd, approval_policy: "on-request", model: "gpt-5" }));
    const n = Math.min(perSession, messages - written);
    for (let i = 0; i < n; i++) {
      const ts = ts0 + i * 1000;
      const r = rand();
      if (r < 0.4) {
        const call = `call_${s}_${i}`;
        lines.push(
          line(ts, "response_item", {
            type: "function_call_output",
            call_id: call,
            output: sentence(rand, vocab, 200 + Math.floor(rand() * 1500), cjkShare),
          }),
        );
      } else {
        const role = i % 2 === 0 ? "user" : "assistant";
        const text = sentence(rand, vocab, 40 + Math.floor(rand() * 500), cjkShare);
        lines.push(
          line(ts, "response_item", {
            type: "message",
            role,
            content: [{ type: role === "user" ? "input_text" : "output_text", text }],
          }),
        );
        lines.push(line(ts, "event_msg", { type: role === "user" ? "user_message" : "agent_message", message: text }));
      }
    }
    written += n;
    const body = `${lines.join("\n")}\n`;
    bytes += Buffer.byteLength(body);
    writeFileSync(join(dir, `rollout-${day.toISOString().slice(0, 19).replace(/:/g, "-")}-${id}.jsonl`), body);
  }
  return { root, files: sessions, messages: written, bytes, repos, vocab };
}
