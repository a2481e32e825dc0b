/**
 * The egress allow-list's part of the sandbox bench (#34): what allowed hosts add to a session's start (the proxy
 * and its private folder, once per session; the bridge in front of the agent, every start) and to each request
 * (client → bridge → unix socket → proxy → server, against the same client reaching the server directly). Each
 * request is a new connection, as a client without keep-alive makes them; clients run in their own process, timed
 * from inside, so process start is not counted. Medians of both sides measured in the same run.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { once } from "node:events";
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { buildSandboxPolicy, type SandboxPolicyInput } from "../src/core/sandbox/policy";
import { closeSandbox, prepareSandbox, sandboxedLaunch, type SandboxPlan } from "../src/core/sandbox/plan";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = (n: number) => n.toFixed(2);

/** N sequential GETs of the URL (through $HTTP_PROXY when set), a new connection each: the times in ms, as JSON. */
const CLIENT = `"use strict";
const http = require("node:http");
const [url, n] = process.argv.slice(1);
const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : undefined;
const target = new URL(url);
const opts = proxy
  ? { host: proxy.hostname, port: proxy.port, path: url, agent: false }
  : { host: target.hostname, port: target.port, path: target.pathname, agent: false };
const get = () => new Promise((resolve, reject) => {
  const t0 = performance.now();
  http.get(opts, (res) => { res.resume(); res.on("end", () => resolve(performance.now() - t0)); }).on("error", reject);
});
(async () => { const out = []; for (let i = 0; i < Number(n); i++) out.push(await get()); console.log(JSON.stringify(out)); })();
`;

/** Async: the proxy runs in this process, so a blocking spawn would wait on itself. */
async function requestTimes(url: string, n: number, plan?: SandboxPlan, cwd = "/"): Promise<number[]> {
  const program = { file: process.execPath, args: ["-e", CLIENT, "--", url, String(n)] };
  const launch = plan ? sandboxedLaunch(plan, program, cwd) : program;
  const env = { ...process.env };
  delete env.HTTP_PROXY;
  const { stdout } = await promisify(execFile)(launch.file, launch.args, { cwd, env, encoding: "utf8" });
  return JSON.parse(stdout) as number[];
}

/** Prints the allow-list's figures; `startOnce` times one agent start → initialize with a plan. */
export async function egressBench(
  input: SandboxPolicyInput,
  rounds: number,
  startOnce: (plan: SandboxPlan) => Promise<number>,
): Promise<void> {
  const server = createServer((_req, res) => res.end("ok"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const open = buildSandboxPolicy(input);
  const listed = buildSandboxPolicy({ ...input, settings: { allowedHosts: [new URL(url).host] } });
  try {
    const prepare: [number[], number[]] = [[], []];
    for (let i = 0; i < rounds; i++) {
      for (const [k, policy] of [open, listed].entries()) {
        const t0 = performance.now();
        await closeSandbox(await prepareSandbox(policy));
        prepare[k]!.push(performance.now() - t0);
      }
    }
    const plain = await prepareSandbox(open);
    const plan = await prepareSandbox(listed);
    const starts: [number[], number[]] = [[], []];
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [0, 1] : [1, 0];
      for (const k of order) starts[k]!.push(await startOnce(k ? plan : plain));
    }
    const n = 200;
    await requestTimes(url, 20, plan, input.roots[0]); // warm both paths
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let i = 0; i < 5; i++) {
      direct.push(...(await requestTimes(url, n)));
      proxied.push(...(await requestTimes(url, n, plan, input.roots[0])));
    }
    await closeSandbox(plan);
    console.log(`allowed hosts (egress proxy + bridge), ${rounds} rounds alternating:`);
    console.log(
      `  session prepare   network open median ${f(median(prepare[0]))} ms, allow-list ${f(median(prepare[1]))} ms (proxy + folder: +${f(median(prepare[1]) - median(prepare[0]))} ms)`,
    );
    console.log(
      `  agent start → initialize, sandboxed: network open median ${f(median(starts[0]))} ms, allow-list ${f(median(starts[1]))} ms (bridge: +${f(median(starts[1]) - median(starts[0]))} ms)`,
    );
    console.log(
      `  one GET, new connection (${direct.length} each): direct median ${f(median(direct))} ms, through bridge + proxy ${f(median(proxied))} ms (+${f(median(proxied) - median(direct))} ms)`,
    );
  } finally {
    server.close();
  }
}
