// Samples → medians → the one printed table (figure | pith | pi | pith/pi), with oh-my-pi's
// columns (omp | pith/omp) when any figure has an omp sample or reason.
import type { AgentName } from "./agents.js";

/** One run's figures; a failed run carries `failure` ("crash: ..." / "timeout" / "n/a: <why the agent cannot run>"). */
export interface RunResult {
  values: Record<string, number>;
  failure?: string;
}

export interface FigureSpec {
  key: string;
  label: string;
  unit: string;
  /** Digits after the point. */
  digits?: number;
}

export class Results {
  private samples = new Map<string, Map<AgentName, number[]>>();
  private failures = new Map<string, Map<AgentName, string>>();
  private order: FigureSpec[] = [];

  declare(specs: FigureSpec[]): void {
    for (const s of specs) if (!this.order.some((o) => o.key === s.key)) this.order.push(s);
  }

  add(agent: AgentName, specs: FigureSpec[], run: RunResult): void {
    this.declare(specs);
    for (const s of specs) {
      const v = run.values[s.key];
      if (v !== undefined && Number.isFinite(v)) {
        const m = this.samples.get(s.key) ?? new Map<AgentName, number[]>();
        this.samples.set(s.key, m);
        m.set(agent, [...(m.get(agent) ?? []), v]);
      } else if (run.failure) {
        const f = this.failures.get(s.key) ?? new Map<AgentName, string>();
        this.failures.set(s.key, f);
        if (!f.has(agent)) f.set(agent, run.failure);
      }
    }
  }

  median(key: string, agent: AgentName): number | undefined {
    const xs = this.samples.get(key)?.get(agent);
    if (!xs || xs.length === 0) return undefined;
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  }

  private cell(spec: FigureSpec, agent: AgentName, notes: string[]): string {
    const m = this.median(spec.key, agent);
    const fail = this.failures.get(spec.key)?.get(agent);
    let ref = "";
    if (fail) {
      if (!notes.includes(`${agent}: ${fail}`)) notes.push(`${agent}: ${fail}`);
      ref = ` [${notes.indexOf(`${agent}: ${fail}`) + 1}]`;
    }
    if (m !== undefined) return `${m.toFixed(spec.digits ?? 0)}${ref}`;
    if (fail) return `${/^crash/.test(fail) ? "CRASH" : /^timeout/.test(fail) ? "TIMEOUT" : /^n\/a/.test(fail) ? "n/a" : "ERROR"}${ref}`;
    return "n/a";
  }

  private ratio(key: string, other: AgentName): string {
    const a = this.median(key, "pith");
    const b = this.median(key, other);
    return a !== undefined && b !== undefined && b !== 0 ? `${(a / b).toFixed(2)}` : "-";
  }

  render(): string {
    const withOmp = [...this.samples.values(), ...this.failures.values()].some((m) => m.has("omp"));
    const head = ["figure", "unit", "pith median", "pi median", "pith/pi", ...(withOmp ? ["omp median", "pith/omp"] : [])];
    const rows: string[][] = [head];
    const notes: string[] = [];
    for (const spec of this.order) {
      const row = [spec.label, spec.unit, this.cell(spec, "pith", notes), this.cell(spec, "pi", notes), this.ratio(spec.key, "pi")];
      if (withOmp) row.push(this.cell(spec, "omp", notes), this.ratio(spec.key, "omp"));
      rows.push(row);
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const line = (r: string[]) => "| " + r.map((c, i) => (i === 0 || i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ") + " |";
    const sep = "|" + widths.map((w, i) => (i < 2 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|";
    const footnotes = notes.map((n, i) => `[${i + 1}] ${n}`);
    return [line(rows[0]), sep, ...rows.slice(1).map(line), ...(footnotes.length ? ["", ...footnotes] : [])].join("\n");
  }
}
