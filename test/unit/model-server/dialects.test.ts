import { test } from "node:test";
import assert from "node:assert/strict";
import { startModelServer, type ModelServer } from "../../fixtures/model-server/index";

const PROMPT = "create hello.txt containing hi and run `echo hi`";
const WS = "/work/space";

async function post(server: ModelServer, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** Parses an SSE body into its `data:` payloads (JSON where possible). */
function events(text: string): unknown[] {
  return text
    .split("\n\n")
    .map((block) =>
      block
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6),
    )
    .filter((d): d is string => d !== undefined)
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
}

async function withServer(fn: (s: ModelServer) => Promise<void>): Promise<void> {
  const server = await startModelServer({ workspace: WS });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

test("the Responses dialect streams an apply_patch custom call, then a shell call, then the final text", () =>
  withServer(async (s) => {
    const tools = [
      { type: "custom", name: "apply_patch", format: { type: "grammar" } },
      {
        type: "function",
        name: "shell_command",
        parameters: {
          type: "object",
          properties: { command: { type: "string" }, workdir: { type: "string" } },
          required: ["command"],
        },
      },
    ];
    const user = { type: "message", role: "user", content: [{ type: "input_text", text: PROMPT }] };
    const env = {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: `<environment_context>\n<cwd>${WS}</cwd>\n</environment_context>` }],
    };
    const first = events(
      (await post(s, "/v1/responses", { model: "gpt-5.5", stream: true, tools, input: [env, user] })).text,
    ) as any[];
    const done1 = first.find((e) => e.type === "response.output_item.done").item;
    assert.equal(done1.type, "custom_tool_call");
    assert.match(done1.input, /\*\*\* Add File: hello.txt\n\+hi\n/);
    assert.equal(first.at(-1).type, "response.completed");
    const out1 = { type: "custom_tool_call_output", call_id: done1.call_id, output: "Success" };
    const second = events(
      (await post(s, "/v1/responses", { stream: true, tools, input: [env, user, done1, out1] })).text,
    ) as any[];
    const call = second.find((e) => e.type === "response.output_item.done").item;
    assert.equal(call.name, "shell_command");
    assert.deepEqual(JSON.parse(call.arguments), { command: "echo hi", workdir: WS });
    const out2 = { type: "function_call_output", call_id: call.call_id, output: "hi\n" };
    const final = await post(s, "/v1/responses", { stream: false, tools, input: [env, user, done1, out1, call, out2] });
    const msg = JSON.parse(final.text).output[0];
    assert.equal(msg.content[0].text, "Done: created hello.txt, ran `echo hi`. Tool output: hi");
  }));

test("the Chat Completions dialect streams tool-call arguments in pieces and ends with usage and [DONE]", () =>
  withServer(async (s) => {
    const tools = [
      {
        type: "function",
        function: {
          name: "write",
          parameters: { type: "object", properties: { filePath: { type: "string" }, content: { type: "string" } } },
        },
      },
    ];
    const messages: any[] = [
      { role: "system", content: `Working directory: ${WS}` },
      { role: "user", content: "create a.txt containing yes" },
    ];
    const chunks = events((await post(s, "/v1/chat/completions", { stream: true, tools, messages })).text) as any[];
    assert.equal(chunks.at(-1), "[DONE]");
    const args = chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? []).join("");
    assert.deepEqual(JSON.parse(args), { filePath: `${WS}/a.txt`, content: "yes" });
    assert.ok(chunks.some((c) => c.usage?.total_tokens > 0));
    messages.push({
      role: "assistant",
      tool_calls: [{ id: "c1", type: "function", function: { name: "write", arguments: args } }],
    });
    messages.push({ role: "tool", tool_call_id: "c1", content: "Wrote file successfully." });
    const final = JSON.parse((await post(s, "/v1/chat/completions", { tools, messages })).text);
    assert.equal(final.choices[0].finish_reason, "stop");
    assert.match(final.choices[0].message.content, /^Done: created a.txt/);
  }));

test("the Anthropic dialect ignores system reminders, calls Write with an absolute path, then ends the turn", () =>
  withServer(async (s) => {
    const tools = [
      {
        name: "Write",
        input_schema: {
          type: "object",
          properties: { file_path: { type: "string" }, content: { type: "string" } },
          required: ["file_path", "content"],
        },
      },
    ];
    const user = {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>context</system-reminder>" },
        { type: "text", text: "create hello.txt containing hi" },
      ],
    };
    const ev = events(
      (
        await post(s, "/v1/messages?beta=true", {
          stream: true,
          tools,
          system: `Primary working directory: ${WS}`,
          messages: [user],
        })
      ).text,
    ) as any[];
    const start = ev.find((e) => e.type === "content_block_start").content_block;
    assert.equal(start.name, "Write");
    const json = ev
      .filter((e) => e.delta?.type === "input_json_delta")
      .map((e) => e.delta.partial_json)
      .join("");
    assert.deepEqual(JSON.parse(json), { file_path: `${WS}/hello.txt`, content: "hi" });
    assert.equal(ev.find((e) => e.type === "message_delta").delta.stop_reason, "tool_use");
    const result = { role: "user", content: [{ type: "tool_result", tool_use_id: start.id, content: "File created" }] };
    const final = JSON.parse(
      (await post(s, "/v1/messages", { tools, messages: [user, { role: "assistant", content: [start] }, result] }))
        .text,
    );
    assert.equal(final.stop_reason, "end_turn");
    assert.equal(final.content[0].text, "Done: created hello.txt. Tool output: File created");
  }));

test("the Gemini dialect calls write_file, answers the router from its JSON schema, and replies in Chinese", () =>
  withServer(async (s) => {
    const tools = [
      {
        functionDeclarations: [
          {
            name: "write_file",
            parametersJsonSchema: {
              type: "object",
              properties: { file_path: { type: "string" }, content: { type: "string" } },
            },
          },
        ],
      },
    ];
    const contents: any[] = [{ role: "user", parts: [{ text: "请 create x.txt containing 你好" }] }];
    const chunks = events(
      (await post(s, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", { tools, contents })).text,
    ) as any[];
    const call = chunks[0].candidates[0].content.parts[0].functionCall;
    assert.deepEqual(call, { name: "write_file", args: { file_path: `${WS}/x.txt`, content: "你好" } });
    contents.push(
      { role: "model", parts: [{ functionCall: call }] },
      { role: "user", parts: [{ functionResponse: { name: "write_file", response: { output: "ok" } } }] },
    );
    const final = JSON.parse(
      (await post(s, "/v1beta/models/gemini-2.5-pro:generateContent", { tools, contents })).text,
    );
    assert.match(final.candidates[0].content.parts[0].text, /^完成：已创建 x.txt/);
    const schema = {
      type: "object",
      properties: { reasoning: { type: "string" }, complexity_score: { type: "integer", minimum: 1, maximum: 100 } },
    };
    const router = JSON.parse(
      (
        await post(s, "/v1beta/models/flash:generateContent", {
          contents,
          generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema },
        })
      ).text,
    );
    assert.equal(JSON.parse(router.candidates[0].content.parts[0].text).complexity_score, 1);
  }));

test("misc routes answer, a malformed body gets a 400, and stats count every request", () =>
  withServer(async (s) => {
    assert.equal((await fetch(s.url + "/", { method: "HEAD" })).status, 200);
    assert.equal(((await (await fetch(s.url + "/v1/models")).json()) as any).data[0].id, "gpt-5.5");
    const bad = await fetch(s.url + "/v1/messages", { method: "POST", body: "{not json" });
    assert.equal(bad.status, 400);
    assert.equal(
      JSON.parse((await post(s, "/__mock/config", { workspace: "/elsewhere" })).text).workspace,
      "/elsewhere",
    );
    const noTools = JSON.parse(
      (await post(s, "/v1/messages", { messages: [{ role: "user", content: "Write a title" }] })).text,
    );
    assert.match(noTools.content[0].text, /^Scripted: Write a title/);
    const stats = s.stats();
    assert.equal(stats.requests, 5);
    assert.equal(stats.errors, 1);
  }));

test("a configured event delay paces the stream without changing its content", () =>
  withServer(async (s) => {
    const body = { stream: true, messages: [{ role: "user", content: "hello there" }] };
    const fast = events((await post(s, "/v1/chat/completions", body)).text) as any[];
    assert.equal(JSON.parse((await post(s, "/__mock/config", { eventDelayMs: 20 })).text).eventDelayMs, 20);
    const res = await fetch(s.url + "/v1/chat/completions", { method: "POST", body: JSON.stringify(body) });
    const reader = res.body!.getReader();
    const first = await reader.read();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString();
    const slow = events(Buffer.from(first.value!).toString() + rest) as any[];
    assert.equal(slow.length, fast.length);
    assert.equal(
      slow.map((c) => c.choices?.[0]?.delta?.content ?? "").join(""),
      fast.map((c) => c.choices?.[0]?.delta?.content ?? "").join(""),
    );
    assert.ok(rest.length > 0, "the paced stream arrived in more than one piece");
  }));

test("the Responses dialect calls a tool inside a namespace by its short name plus the namespace", () =>
  withServer(async (s) => {
    const tools = [
      {
        type: "namespace",
        name: "mcp__acp_threads",
        tools: [
          {
            type: "function",
            name: "recall",
            parameters: { type: "object", properties: { query: { type: "string" } } },
          },
        ],
      },
    ];
    const input = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "search past sessions for sqlite" }] },
    ];
    const res = JSON.parse((await post(s, "/v1/responses", { tools, input })).text);
    const call = res.output[0];
    assert.deepEqual(
      [call.type, call.name, call.namespace, JSON.parse(call.arguments)],
      ["function_call", "recall", "mcp__acp_threads", { query: "sqlite" }],
    );
  }));

test("injected failures answer the next model requests with the dialect's error shape, then recover", () =>
  withServer(async (s) => {
    s.configure({ fail: { status: 400, count: 2, message: "nope" } });
    const a = await post(s, "/v1/messages", { messages: [{ role: "user", content: "hi" }] });
    assert.deepEqual(
      [a.status, JSON.parse(a.text)],
      [400, { type: "error", error: { type: "invalid_request_error", message: "nope" } }],
    );
    const g = await post(s, "/v1beta/models/m:generateContent", { contents: [] });
    assert.deepEqual([g.status, JSON.parse(g.text).error.status], [400, "INVALID_ARGUMENT"]);
    assert.equal((await post(s, "/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] })).status, 200);
    assert.equal(s.stats().injectedFailures, 2);
  }));
