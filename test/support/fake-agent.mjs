// A programmable stand-in for an agent speaking the protocol, for the client's unit tests.
// Commands are answered `{success:true, data:{echo: <command>}}`; `get_state` answers
// `{isStreaming: <busy>}`. Test-only control frames:
//   {"type":"__emit","frames":[...], "raw": "text"}  writes the frames (and raw text) verbatim
//   {"type":"__busy","value":bool}                    sets what get_state reports
//   {"type":"__fail","command":"x","error":"..."}     makes the next `x` fail
//   {"type":"__late","command":"x","error":"..."}     acks the next `x`, then a late failure
//   {"type":"__spawn_sleeper"}                        starts `sleep 60` in this process group
// Every other inbound frame is recorded; {"type":"__dump"} writes {"type":"__received","frames":[...]}.
// Flags: --no-ready (no ready frame), --exit-early (stderr + exit 3 before ready),
//        --ignore-eof (stay alive after stdin closes), --silent (never write ready, stay alive).
import { spawn } from "node:child_process";
import process from "node:process";
import { setInterval, setTimeout } from "node:timers";

const flags = new Set(process.argv.slice(2));
const out = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");

if (flags.has("--exit-early")) {
  process.stderr.write("fatal: no models available\n");
  process.exit(3);
}
if (!flags.has("--no-ready") && !flags.has("--silent")) out({ type: "ready", version: "fake-1" });

let busy = false;
const fail = new Map();
const late = new Map();
const received = [];

function onCommand(cmd) {
  const id = cmd.id;
  const failure = fail.get(cmd.type);
  if (failure !== undefined) {
    fail.delete(cmd.type);
    out({ id, type: "response", command: cmd.type, success: false, error: failure });
    return;
  }
  if (cmd.type === "get_state") {
    out({ id, type: "response", command: "get_state", success: true, data: { isStreaming: busy } });
    return;
  }
  out({ id, type: "response", command: cmd.type, success: true, data: { echo: cmd } });
  const lateError = late.get(cmd.type);
  if (lateError !== undefined) {
    late.delete(cmd.type);
    setTimeout(() => out({ id, type: "response", command: cmd.type, success: false, error: lateError }), 5);
  }
}

function onFrame(frame) {
  switch (frame.type) {
    case "__emit":
      for (const f of frame.frames ?? []) out(f);
      if (frame.raw) process.stdout.write(frame.raw);
      return;
    case "__busy":
      busy = frame.value;
      return;
    case "__fail":
      fail.set(frame.command, frame.error);
      return;
    case "__late":
      late.set(frame.command, frame.error);
      return;
    case "__spawn_sleeper": {
      const child = spawn("sleep", ["60"], { stdio: "ignore" });
      out({ type: "__sleeper", pid: child.pid });
      return;
    }
    case "__dump":
      out({ type: "__received", frames: received });
      return;
  }
  received.push(frame);
  if (["extension_ui_response", "host_tool_update", "host_tool_result"].includes(frame.type)) return;
  onCommand(frame);
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\n")) !== -1) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim()) onFrame(JSON.parse(line));
  }
});
process.stdin.on("end", () => {
  if (flags.has("--ignore-eof") || flags.has("--silent")) {
    process.on("SIGTERM", () => undefined); // only SIGKILL ends it
    setInterval(() => undefined, 1000);
    return;
  }
  process.exit(0);
});
