// What the storm test checks after each run: tool calls paired (in messages, in the session file,
// in the requests the fake provider received) and no process left behind (walked in /proc).
import { readdirSync, readFileSync } from "node:fs";
import type { FakeRequest } from "../support/fake-llm-server.js";
import type { Frame } from "./harness.js";

/** Every assistant tool call has exactly one tool result after it and before the next assistant message. */
export function messagePairingProblems(messages: Frame[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  let open = new Set<string>();
  const closeTurn = () => {
    for (const id of open) problems.push(`tool call ${id} has no tool result`);
    open = new Set();
  };
  for (const m of messages) {
    if (m.role === "assistant") {
      closeTurn();
      for (const block of m.content ?? []) if (block.type === "toolCall") open.add(block.id);
    } else if (m.role === "toolResult") {
      seen.set(m.toolCallId, (seen.get(m.toolCallId) ?? 0) + 1);
      if (!open.delete(m.toolCallId)) problems.push(`tool result ${m.toolCallId} answers no open tool call`);
    }
  }
  closeTurn();
  for (const [id, n] of seen) if (n > 1) problems.push(`tool call ${id} has ${n} results`);
  return problems;
}

/** The session file's messages in file order (one branch: the storm never branches). */
export function sessionFileMessages(file: string): Frame[] {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  return lines.map((l) => JSON.parse(l) as Frame).filter((e) => e.type === "message").map((e) => e.message);
}

/** OpenAI chat request: each assistant tool call is followed by its tool message; no tool message is orphaned. */
export function requestPairingProblems(req: FakeRequest): string[] {
  const msgs: Frame[] = req.body?.messages ?? [];
  const problems: string[] = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (m.role === "tool") {
      let j = i - 1;
      while (j >= 0 && msgs[j].role === "tool") j--;
      const owner = msgs[j];
      if (owner?.role !== "assistant" || !(owner.tool_calls ?? []).some((c: Frame) => c.id === m.tool_call_id)) {
        problems.push(`orphan tool result ${m.tool_call_id}`);
      }
    }
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < msgs.length && msgs[j].role === "tool"; j++) answered.add(msgs[j].tool_call_id);
    for (const c of m.tool_calls) if (!answered.has(c.id)) problems.push(`tool call ${c.id} has no result`);
  }
  return problems;
}

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  cmd: string;
}

/** Reads a /proc file of a process that may have exited meanwhile (undefined then). */
function procFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH" || code === "EACCES" || code === "EPERM") return undefined;
    throw err;
  }
}

/** Every live process (zombies are dead: they are left out). */
export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = procFile(pid, "stat");
    if (!stat) continue;
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") continue;
    const cmd = (procFile(pid, "cmdline") ?? "").split("\0").join(" ").trim();
    out.push({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]), cmd });
  }
  return out;
}

/** The processes below `root` (children, their children, ...). */
export function descendants(root: number, all: Proc[] = processes()): Proc[] {
  const below = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!below.has(p.pid) && below.has(p.ppid)) {
        below.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid));
}

/** Whether the process's environment holds `NAME=value` (every child of pith inherits it). */
function hasEnv(pid: number, pair: string): boolean {
  const env = procFile(pid, "environ");
  return env !== undefined && env.split("\0").includes(pair);
}

/**
 * What pith left running: its descendants, processes of the process groups its children led
 * (reparented to init when their parent died), and any process carrying pith's environment marker.
 */
export function leftovers(pithPid: number, groups: ReadonlySet<number>, marker: string): Proc[] {
  const all = processes();
  const found = new Map<number, Proc>();
  for (const p of descendants(pithPid, all)) found.set(p.pid, p);
  for (const p of all) {
    if (p.pid === pithPid || found.has(p.pid)) continue;
    if (groups.has(p.pgid) || hasEnv(p.pid, marker)) found.set(p.pid, p);
  }
  return [...found.values()];
}

/** The process groups pith's children lead now (pith's own group is the test runner's). */
export function childGroups(pithPid: number): number[] {
  const all = processes();
  const own = all.find((p) => p.pid === pithPid)?.pgid;
  return descendants(pithPid, all)
    .map((p) => p.pgid)
    .filter((g) => g !== own);
}

/** Whether `pid` is gone (a zombie counts as gone) within `ms`. */
export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const stat = procFile(pid, "stat");
    if (stat === undefined || /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
