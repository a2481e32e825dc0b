// Elicitation (`elicitation/create`, `elicitation/complete`) and `$/cancel_request` from the agent, against an
// in-process fake agent: forms checked and answered, malformed schemas declined with a notice, url mode,
// a withdrawn question stops the prompt and the turn goes on, a cancel for an unknown id changes nothing.
import assert from "node:assert/strict";
import { methods, type InitializeRequest } from "@agentclientprotocol/sdk";
import { test } from "node:test";
import {
  defaultAnswer,
  parseFieldText,
  parseRequestedSchema,
  validateAnswer,
} from "../../../../src/core/acp/elicitation-form";
import type { ElicitationAsker, ElicitationPrompt } from "../../../../src/core/model/elicitation";
import type { RuntimeEvent } from "../../../../src/core/model/events";
import type { PermissionAsker } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const SCHEMA = {
  type: "object",
  title: "Deploy",
  properties: {
    name: { type: "string", title: "Name", minLength: 2, maxLength: 10, default: "Ada" },
    email: { type: "string", format: "email" },
    tag: { type: "string", pattern: "^v\\d+$" },
    count: { type: "integer", minimum: 1, maximum: 9, default: 3 },
    ratio: { type: "number", minimum: 0, maximum: 1 },
    dry: { type: "boolean", default: true },
    env: { type: "string", enum: ["dev", "prod"], default: "dev" },
    region: {
      type: "string",
      oneOf: [
        { const: "eu", title: "Europe" },
        { const: "us", title: "America" },
      ],
    },
    checks: { type: "array", items: { type: "string", enum: ["lint", "test", "e2e"] }, minItems: 1, default: ["lint"] },
  },
  required: ["name", "count", "env"],
};

test("a schema with every supported field kind becomes a form with defaults, bounds and choices", () => {
  const parsed = parseRequestedSchema(SCHEMA);
  assert.ok(parsed.ok);
  const form = parsed.value;
  assert.equal(form.title, "Deploy");
  assert.deepEqual(
    form.fields.map((f) => [f.name, f.kind, f.required]),
    [
      ["name", "string", true],
      ["email", "string", false],
      ["tag", "string", false],
      ["count", "integer", true],
      ["ratio", "number", false],
      ["dry", "boolean", false],
      ["env", "choice", true],
      ["region", "choice", false],
      ["checks", "multi", false],
    ],
  );
  const region = form.fields.find((f) => f.name === "region");
  assert.deepEqual(region?.kind === "choice" && region.choices.map((c) => c.title), ["Europe", "America"]);
  assert.deepEqual(defaultAnswer(form), {
    ok: true,
    content: { name: "Ada", count: 3, dry: true, env: "dev", checks: ["lint"] },
  });
});

test("a schema we cannot render says why", () => {
  const cases: [unknown, RegExp][] = [
    ["nope", /not an object/],
    [{ type: "array" }, /type "array"/],
    [{ properties: { a: { type: "object" } } }, /field "a": type "object"/],
    [{ properties: { a: { type: "string", format: "ipv4" } } }, /format "ipv4"/],
    [{ properties: { a: { type: "string", pattern: "(" } } }, /not a valid regular expression/],
    [{ properties: { a: { type: "string" } }, required: ["b"] }, /requires "b"/],
    [{ properties: { a: { type: "integer", default: 2.5 } } }, /default is not an integer/],
    [{ properties: { a: { type: "integer", minimum: 5, maximum: 1 } } }, /range is empty/],
    [{ properties: { a: { type: "string", maxLength: 2, default: "long" } } }, /default does not fit/],
    [{ properties: { a: { type: "string", enum: [] } } }, /no choices/],
    [{ properties: { a: { type: "array", items: { type: "number" } } } }, /list of "number"/],
    [{ properties: { a: { type: "string", enum: ["x", "x"] } } }, /repeats/],
  ];
  for (const [schema, reason] of cases) {
    const parsed = parseRequestedSchema(schema);
    assert.equal(parsed.ok, false, JSON.stringify(schema));
    assert.match(!parsed.ok ? parsed.reason : "", reason);
  }
});

test("answers are checked field by field: required, bounds, formats, patterns, choices, unknown fields", () => {
  const parsed = parseRequestedSchema(SCHEMA);
  assert.ok(parsed.ok);
  const form = parsed.value;
  assert.deepEqual(validateAnswer(form, { name: "Bo", count: 9, env: "prod", region: "eu" }), {
    ok: true,
    content: { name: "Bo", count: 9, env: "prod", region: "eu" },
  });
  const bad = validateAnswer(form, {
    name: "B",
    email: "not-mail",
    tag: "1.0",
    count: 10,
    ratio: 2,
    env: "staging",
    checks: ["lint", "lint"],
    extra: 1,
  });
  assert.ok(!bad.ok);
  assert.deepEqual(Object.keys(bad.errors).sort(), [
    "checks",
    "count",
    "email",
    "env",
    "extra",
    "name",
    "ratio",
    "tag",
  ]);
  assert.deepEqual(validateAnswer(form, {}).ok ? [] : Object.keys((validateAnswer(form, {}) as never)["errors"]), [
    "name",
    "count",
    "env",
  ]);
  const date = parseRequestedSchema({ properties: { d: { type: "string", format: "date" } } });
  assert.ok(date.ok);
  assert.equal(validateAnswer(date.value, { d: "2026-11-25" }).ok, true);
  assert.equal(validateAnswer(date.value, { d: "25/11/2026" }).ok, false);
});

test("typed text is read per field kind (numbers, yes/no, a choice by number or title, a comma list)", () => {
  const parsed = parseRequestedSchema(SCHEMA);
  assert.ok(parsed.ok);
  const field = (name: string) => parsed.value.fields.find((f) => f.name === name)!;
  assert.deepEqual(parseFieldText(field("count"), " 4 "), { ok: true, value: 4 });
  assert.equal(parseFieldText(field("count"), "4.5").ok, false);
  assert.equal(parseFieldText(field("count"), "x").ok, false);
  assert.deepEqual(parseFieldText(field("dry"), "no"), { ok: true, value: false });
  assert.deepEqual(parseFieldText(field("region"), "2"), { ok: true, value: "us" });
  assert.deepEqual(parseFieldText(field("region"), "europe"), { ok: true, value: "eu" });
  assert.deepEqual(parseFieldText(field("checks"), "test, 3"), { ok: true, value: ["test", "e2e"] });
  assert.deepEqual(parseFieldText(field("name"), ""), { ok: true, value: undefined });
});

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-elicit-", fn);

/** A turn that sends `params` as elicitation/create and says the answer. */
function eliciting(params: Record<string, unknown>) {
  return async ({ client, sessionId, say }: TurnContext) => {
    const res = await client.request(methods.client.elicitation.create, { sessionId, ...params } as never);
    await say(`${res.action}${res.action === "accept" ? ` ${JSON.stringify(res.content ?? {})}` : ""}`);
    return "end_turn";
  };
}

const notices = (events: RuntimeEvent[]) => events.flatMap((e) => (e.type === "notice" ? [e] : []));

test("a form is advertised, asked, answered and recorded by field names only", () =>
  withTmp(async (cwd) => {
    let init: InitializeRequest | undefined;
    const asked: ElicitationPrompt[] = [];
    const elicitor: ElicitationAsker = {
      ask: async (p) => {
        asked.push(p);
        return { action: "accept", content: { name: "Grace", count: 7, env: "prod" } };
      },
    };
    const rt = startFake(
      {
        onInitialize: (p) => (init = p),
        prompt: eliciting({ mode: "form", message: "Deploy where?", requestedSchema: SCHEMA }),
      },
      { cwd, elicitor },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.deepEqual(init?.clientCapabilities?.elicitation, { form: {}, url: {} });
    assert.equal(asked.length, 1);
    assert.equal(asked[0].mode, "form");
    assert.equal(asked[0].message, "Deploy where?");
    assert.equal(asked[0].sessionId, sessionId);
    assert.equal(outputText(events), `accept {"name":"Grace","count":7,"env":"prod"}`);
    const [n] = notices(events);
    assert.equal(n.title, "Answered the agent's question");
    assert.match(n.description ?? "", /Fields: name, count, env/);
    assert.doesNotMatch(JSON.stringify(events.filter((e) => e.type === "notice")), /Grace/);
  }));

test("without an elicitor, elicitation is not advertised and a request is declined with a notice", () =>
  withTmp(async (cwd) => {
    let init: InitializeRequest | undefined;
    const rt = startFake(
      {
        onInitialize: (p) => (init = p),
        prompt: eliciting({ mode: "form", message: "Name?", requestedSchema: SCHEMA }),
      },
      { cwd },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.equal(init?.clientCapabilities?.elicitation, undefined);
    assert.equal(outputText(events), "decline");
    assert.match(notices(events)[0].description ?? "", /nobody is here to answer/);
  }));

test("a malformed schema, a bad URL and an unknown mode are declined with a notice and never asked", () =>
  withTmp(async (cwd) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { mode: "form", message: "Pick", requestedSchema: { properties: { a: { type: "object" } } } },
        /cannot be shown/,
      ],
      [{ mode: "url", message: "Log in", elicitationId: "e1", url: "javascript:alert(1)" }, /not a web address/],
      [{ mode: "_telepathy", message: "Think" }, /mode "_telepathy"/],
    ];
    for (const [params, why] of cases) {
      let asked = 0;
      const rt = startFake(
        { prompt: eliciting(params) },
        { cwd, elicitor: { ask: async () => (asked++, { action: "accept" }) } },
      );
      const { sessionId } = await rt.ensureSession();
      const events = await collect(rt.runTurn(sessionId, "go"));
      await rt.close();
      assert.equal(outputText(events), "decline");
      assert.equal(asked, 0);
      assert.match(notices(events)[0].description ?? "", why);
    }
  }));

test("an answer that does not fit the form is declined, not sent", () =>
  withTmp(async (cwd) => {
    const rt = startFake(
      { prompt: eliciting({ mode: "form", message: "Count?", requestedSchema: SCHEMA }) },
      { cwd, elicitor: { ask: async () => ({ action: "accept", content: { name: "Grace", count: 99, env: "x" } }) } },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.equal(outputText(events), "decline");
    assert.match(notices(events)[0].description ?? "", /count must be at most 9/);
  }));

test("url mode shows the host, accept means consent, and elicitation/complete reaches the asker", () =>
  withTmp(async (cwd) => {
    const completed: string[] = [];
    let prompt: ElicitationPrompt | undefined;
    const rt = startFake(
      {
        prompt: async (turn) => {
          const res = await turn.client.request(methods.client.elicitation.create, {
            sessionId: turn.sessionId,
            mode: "url",
            message: "Sign in to GitHub",
            elicitationId: "el-7",
            url: "https://github.com/login/device?code=1",
          });
          await turn.client.notify(methods.client.elicitation.complete, { elicitationId: "el-7" });
          await turn.say(res.action);
          return "end_turn";
        },
      },
      {
        cwd,
        elicitor: {
          ask: async (p) => ((prompt = p), { action: "accept" }),
          completed: (id) => completed.push(id),
        },
      },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    await rt.close();
    assert.equal(outputText(events), "accept");
    assert.equal(prompt?.mode === "url" && prompt.host, "github.com");
    assert.deepEqual(completed, ["el-7"]);
  }));

test("$/cancel_request from the agent stops a pending form and a pending permission; the turn goes on", () =>
  withTmp(async (cwd) => {
    const seen: string[] = [];
    const elicitor: ElicitationAsker = {
      ask: (p) =>
        new Promise((resolve) => {
          seen.push("form asked");
          p.signal.addEventListener("abort", () => seen.push("form withdrawn"));
          void resolve; // never answered by the person
        }),
    };
    const asker: PermissionAsker = {
      ask: (p) =>
        new Promise(() => {
          seen.push("permission asked");
          p.signal.addEventListener("abort", () => seen.push("permission withdrawn"));
        }),
    };
    const rt = startFake(
      {
        prompt: async ({ client, sessionId, say }) => {
          const stop = new AbortController();
          const form = client.request(
            methods.client.elicitation.create,
            { sessionId, mode: "form", message: "Name?", requestedSchema: SCHEMA } as never,
            { cancellationSignal: stop.signal },
          );
          while (!seen.includes("form asked")) await new Promise((r) => setImmediate(r));
          stop.abort();
          const formAnswer = await form.then(
            (r) => r.action,
            (e: Error) => `error ${e.message}`,
          );
          const stop2 = new AbortController();
          const perm = client.request(
            methods.client.session.requestPermission,
            {
              sessionId,
              toolCall: { toolCallId: "t1", title: "rm it", kind: "delete" },
              options: [{ optionId: "ok", name: "Yes", kind: "allow_once" }],
            },
            { cancellationSignal: stop2.signal },
          );
          while (!seen.includes("permission asked")) await new Promise((r) => setImmediate(r));
          stop2.abort();
          const permAnswer = await perm.then(
            (r) => r.outcome.outcome,
            (e: Error) => `error ${e.message}`,
          );
          // A cancel for an id nobody is waiting on changes nothing.
          await client.notify("$/cancel_request", { requestId: 987654 });
          await say(`form: ${formAnswer}; permission: ${permAnswer}; still going`);
          return "end_turn";
        },
      },
      { cwd, elicitor, asker, permissionPolicy: "approve-reads" },
    );
    const { sessionId } = await rt.ensureSession();
    const events = await collect(rt.runTurn(sessionId, "go"));
    assert.equal(rt.getStatus(), "idle");
    await rt.close();
    assert.deepEqual(seen, ["form asked", "form withdrawn", "permission asked", "permission withdrawn"]);
    assert.match(outputText(events), /form: cancel; permission: cancelled; still going/);
    assert.equal(events.at(-1)?.type, "done");
    assert.ok(notices(events).some((n) => n.title === "The agent withdrew its question"));
  }));

test("cancelling the turn stops a pending form and answers cancel", () =>
  withTmp(async (cwd) => {
    let asked!: () => void;
    const askedP = new Promise<void>((r) => (asked = r));
    const rt = startFake(
      { prompt: eliciting({ mode: "form", message: "Name?", requestedSchema: SCHEMA }) },
      { cwd, elicitor: { ask: () => (asked(), new Promise(() => {})) } },
    );
    const { sessionId } = await rt.ensureSession();
    const turn = collect(rt.runTurn(sessionId, "go"));
    await askedP;
    await rt.cancel(sessionId);
    const events = await turn;
    await rt.close();
    assert.equal(outputText(events), "cancel");
  }));
