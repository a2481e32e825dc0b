/**
 * `authenticate` on `auth_required`. Agent-type methods are a plain `authenticate` request. Terminal methods
 * (stable `type: "terminal"`, or the older `_meta["terminal-auth"]`) run the agent's own login command for the
 * user, in the host's terminal when there is one, else on the CLI's own terminal; the spec forbids sending
 * `authenticate` for them.
 */
import { methods, type AuthMethod, type ClientContext } from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { mergeEnv } from "../platform/env";
import { findExecutable } from "../platform/executables";
import { HOST_PLATFORM } from "../platform/host";
import { launchProgram } from "../platform/shell";
import { AcpThreadsError } from "../errors";
import type { Logger } from "../log";
import type { AgentSpec } from "../model/agent";
import type { TerminalManager } from "./terminal-handler";

export const AUTH_REQUIRED_CODE = -32000;

export interface LoginCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function isAuthRequired(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === AUTH_REQUIRED_CODE;
}

/** The login command a terminal auth method asks for, or undefined for agent-type methods. */
export function loginCommandOf(method: AuthMethod, spec: AgentSpec): LoginCommand | undefined {
  const m = method as AuthMethod & { type?: string; args?: string[]; env?: Record<string, string> };
  if (m.type === "terminal") {
    return { command: spec.command, args: [...spec.args, ...(m.args ?? [])], env: { ...m.env } };
  }
  const legacy = m._meta?.["terminal-auth"] as
    { command?: string; args?: string[]; env?: Record<string, string> } | undefined;
  if (legacy && typeof legacy === "object") {
    return { command: legacy.command ?? spec.command, args: legacy.args ?? spec.args, env: { ...legacy.env } };
  }
  return undefined;
}

export interface AuthContext {
  agent: ClientContext;
  spec: AgentSpec;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Method to use when the agent offers several. */
  preferredMethodId?: string;
  logger?: Logger;
  /** When set, terminal logins run in the host's terminal (through the terminal manager). */
  terminals?: TerminalManager;
  /** Why nobody would see that terminal now (TerminalHost.loginUnseen): the login then fails at once. */
  loginUnseen?: () => Promise<string | undefined>;
}

/** Authenticates with the preferred method, else the first agent-type one, else the first terminal one. */
export async function authenticate(authMethods: readonly AuthMethod[], ctx: AuthContext): Promise<string> {
  if (authMethods.length === 0) {
    throw new AcpThreadsError("protocol", `${ctx.spec.displayName} asks to authenticate but offers no auth method`);
  }
  const method =
    authMethods.find((m) => m.id === ctx.preferredMethodId) ??
    authMethods.find((m) => !loginCommandOf(m, ctx.spec)) ??
    authMethods[0];
  const login = loginCommandOf(method, ctx.spec);
  // Some methods open a browser and wait for the user: say what is happening instead of hanging silently.
  ctx.logger?.warn(
    `${ctx.spec.displayName} requires authentication; trying '${method.name}' (${method.id})${login ? ": running its login command" : ""}`,
  );
  if (!login) {
    await ctx.agent.request(methods.agent.authenticate, { methodId: method.id });
    return method.id;
  }
  const unseen = ctx.terminals && (await ctx.loginUnseen?.());
  if (unseen) throw new AcpThreadsError("protocol", unseen, { loginUnseen: true });
  const code = await runLogin(login, ctx);
  if (code !== 0) {
    throw new AcpThreadsError(
      "protocol",
      `${ctx.spec.displayName} login ('${method.name}') failed with exit code ${code}`,
    );
  }
  return method.id;
}

async function runLogin(login: LoginCommand, ctx: AuthContext): Promise<number | null> {
  if (ctx.terminals) {
    const { terminalId } = await ctx.terminals.create(
      {
        sessionId: "authentication",
        command: login.command,
        args: login.args,
        env: Object.entries(login.env).map(([name, value]) => ({ name, value })),
        cwd: ctx.cwd,
      },
      "engine",
    );
    return (await ctx.terminals.waitForExit({ sessionId: "authentication", terminalId })).exitCode ?? null;
  }
  return await new Promise((resolve) => {
    const env = mergeEnv(HOST_PLATFORM, ctx.env, login.env);
    const file = findExecutable(login.command, { cwd: ctx.cwd, env }) ?? login.command;
    const launch = launchProgram(file, login.args, { env });
    const child = spawn(launch.file, launch.args, {
      cwd: ctx.cwd,
      env,
      stdio: "inherit",
      windowsVerbatimArguments: launch.verbatim,
    });
    child.once("error", () => resolve(127));
    child.once("exit", (code) => resolve(code));
  });
}
