#!/usr/bin/env node
// Writes the registry snapshot bundled with the extension and the CLI (src/core/registry/snapshot.json), the
// index `fetchRegistry` falls back to when neither the network nor the data home's cache has one.
//
//   node scripts/registry-snapshot.mjs SOURCE [--out FILE]
//
// SOURCE is a registry.json (as served by https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json)
// or a checkout of github.com/agentclientprotocol/registry (one folder per agent: agent.json + icon.svg).
// The snapshot keeps the fields the client reads; an icon is kept (as a data: URI) only when its SVG is small.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MAX_ICON_BYTES = 1024;
const KEEP = ["id", "name", "version", "description", "repository", "website", "authors", "license", "distribution"];

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const outAt = argv.indexOf("--out");
const out = outAt >= 0 ? argv.splice(outAt, 2)[1] : path.join(repo, "src/core/registry/snapshot.json");
const source = argv[0];
if (!source || argv.length !== 1) {
  process.stderr.write("usage: node scripts/registry-snapshot.mjs REGISTRY_JSON|REGISTRY_CHECKOUT [--out FILE]\n");
  process.exit(2);
}

const small = (svg) => (svg && Buffer.byteLength(svg) <= MAX_ICON_BYTES ? svg : undefined);
const dataUri = (svg) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;

function fromCheckout(dir) {
  const agents = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name, "agent.json");
    if (name.startsWith(".") || name.startsWith("_") || !existsSync(file)) continue;
    const agent = JSON.parse(readFileSync(file, "utf8"));
    const iconFile = path.join(dir, name, "icon.svg");
    const svg = existsSync(iconFile) ? small(readFileSync(iconFile, "utf8")) : undefined;
    if (svg) agent.icon = dataUri(svg);
    agents.push(agent);
  }
  return { version: "1.0.0", agents };
}

function compact(agent) {
  const out = {};
  for (const key of KEEP) if (agent[key] !== undefined) out[key] = agent[key];
  if (typeof agent.icon === "string" && agent.icon.startsWith("data:") && agent.icon.length <= MAX_ICON_BYTES * 1.4)
    out.icon = agent.icon;
  return out;
}

const registry = statSync(source).isDirectory() ? fromCheckout(source) : JSON.parse(readFileSync(source, "utf8"));
const snapshot = { version: registry.version ?? "1.0.0", agents: registry.agents.map(compact) };
writeFileSync(out, `${JSON.stringify(snapshot, null, 1)}\n`);
process.stdout.write(`${out}: ${snapshot.agents.length} agents\n`);
