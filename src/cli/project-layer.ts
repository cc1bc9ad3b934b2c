// One session folder's project layer: whether the folder is trusted, the settings that follow
// from that (global ← project file only when trusted), and the run-time grant. Everything
// project-local that is code or policy loads together or not at all; what loading means for a
// running session (new settings, tools, MCP servers, extensions) is registered by the
// composition root with `onTrusted`, so this file knows nothing of how sessions are built.
import type { AgentSession, ProjectTrustPort } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import type { ProjectTrustReport, ProjectTrustStateWire } from "../shared/schema/index.js";
import { childEnvironment } from "../tools/index.js";
import type { ParsedArgs } from "./args.js";
import { findProjectLayer, untrustedNotice } from "./project-inventory.js";
import { resolveProjectTrust, type TrustDecision, type TrustSource } from "./project-trust.js";
import { mergeSettingsLayers, readSettingsLayer, settingsPaths, type Settings, type SettingsLayer } from "./settings.js";
import { settingsExtensionPaths } from "./settings-extensions.js";
import { saveTrustDecision, trustFilePath } from "./trust-store.js";

/** What the process's settings come from: the global file (read once) and the mode's adjustments. */
export interface SettingsSource {
  /** `PITH_HOME/settings.json`, validated at start; undefined when there is none. */
  global: SettingsLayer | undefined;
  /** Applied after the files merged (RPC and ACP reset the workflow-altering todo settings). */
  finish(settings: Settings): Settings;
}

/** What every layer of the process shares. */
export interface LayerContext {
  args: ParsedArgs;
  source: SettingsSource;
  pithHome: string;
  env: Record<string, string | undefined>;
  log(message: string): void;
  /** Credential variables pith reads (never handed to child processes). */
  secrets(): Iterable<string>;
}

/** Folders whose "ignored" notice was written (once per folder per process). */
const noticed = new Set<string>();
const layers = new WeakMap<AgentSession, ProjectLayer>();

/** The layer a top-level session was built with (none for an embedder's session). */
export function projectLayerOf(session: AgentSession): ProjectLayer | undefined {
  return layers.get(session);
}

export class ProjectLayer {
  private decision: TrustDecision;
  private current: Settings;
  private readonly appliers: Array<(settings: Settings) => Promise<void>> = [];
  /** The child processes' environment: one object, updated in place when the settings change. */
  readonly childEnv: Record<string, string> = {};

  private constructor(
    private readonly ctx: LayerContext,
    readonly cwd: string,
    decision: TrustDecision,
    settings: Settings,
  ) {
    this.decision = decision;
    this.current = settings;
  }

  /** Decides the folder's trust and reads its settings (a bad project file, when trusted, throws). */
  static async create(ctx: LayerContext, cwd: string): Promise<ProjectLayer> {
    const global = mergeSettingsLayers([ctx.source.global]);
    const decision = resolveProjectTrust({
      cwd,
      pithHome: ctx.pithHome,
      flag: ctx.args.trustProject,
      envValue: ctx.env.PITH_TRUST_PROJECT,
      trustedFolders: global.trustedFolders,
      defaultProjectTrust: global.defaultProjectTrust,
      warn: ctx.log,
    });
    const layer = new ProjectLayer(ctx, cwd, decision, settingsFor(ctx, cwd, decision.trusted));
    await layer.updateChildEnv();
    return layer;
  }

  get settings(): Settings {
    return this.current;
  }

  get trusted(): boolean {
    return this.decision.trusted;
  }

  /** The settings' `extensions` lists (the project file's only while the folder is trusted). */
  extensionPaths(): string[] {
    return settingsExtensionPaths(this.ctx.source.global, this.ctx.pithHome, this.cwd, this.trusted);
  }

  /** What the composition root does to a running session when the folder becomes trusted. */
  onTrusted(apply: (settings: Settings) => Promise<void>): void {
    this.appliers.push(apply);
  }

  /** Ties a top-level session to this layer (`projectLayerOf`). */
  own(session: AgentSession): void {
    layers.set(session, this);
  }

  state(): ProjectTrustStateWire {
    return { trusted: this.decision.trusted, source: this.decision.source };
  }

  async report(): Promise<ProjectTrustReport> {
    return { folder: this.decision.folder, ...this.state(), found: await findProjectLayer(this.cwd, this.ctx.pithHome) };
  }

  /**
   * Trusts the folder now: the project settings are read (a bad file fails here, before anything
   * changed), the decision is saved when asked, then every applier loads its part.
   */
  async grant(persist: boolean, source: TrustSource = "host"): Promise<ProjectTrustReport> {
    if (this.decision.trusted) {
      if (persist) await this.save(true);
      return this.report();
    }
    const next = settingsFor(this.ctx, this.cwd, true);
    if (persist) await this.save(true);
    this.decision = { ...this.decision, trusted: true, source };
    this.current = next;
    await this.updateChildEnv();
    for (const apply of this.appliers) await apply(next);
    return this.report();
  }

  /** The port the session's `trust` reaches (subagents get a view without the grant). */
  port(canGrant = true): ProjectTrustPort {
    return {
      state: () => this.state(),
      report: () => this.report(),
      grant: ({ persist }) => (canGrant ? this.grant(persist) : Promise.reject(new PithError("unavailable", "A subagent follows its parent session's trust"))),
    };
  }

  /**
   * After the user-level and `-e` extensions started: a folder nobody decided about (and that holds
   * a project layer) is offered to their `project_trust` handlers; the first "yes" or "no" decides
   * ("remember" saves it). A folder still untrusted then gets its once-only stderr notice.
   */
  async settle(ask: ((cwd: string) => Promise<{ trusted: boolean; remember: boolean } | undefined>) | undefined): Promise<void> {
    if (this.decision.trusted) return;
    const found = await findProjectLayer(this.cwd, this.ctx.pithHome);
    if (found.length === 0) return;
    if (this.decision.source === "default" && ask) {
      const answer = await ask(this.cwd);
      if (answer?.trusted) {
        await this.grant(answer.remember, "extension");
        return;
      }
      if (answer) {
        this.decision = { ...this.decision, source: "extension" };
        if (answer.remember) await this.save(false);
      }
    }
    if (noticed.has(this.decision.folder)) return;
    noticed.add(this.decision.folder);
    this.ctx.log(untrustedNotice(this.decision.folder, this.cwd, found, this.ctx.pithHome));
  }

  private save(decision: boolean): Promise<void> {
    return saveTrustDecision(trustFilePath(this.ctx.pithHome), this.decision.folder, decision);
  }

  private async updateChildEnv(): Promise<void> {
    const env = await childEnvironment(this.ctx.env, { secrets: this.ctx.secrets(), ...this.current.tools.env });
    for (const key of Object.keys(this.childEnv)) delete this.childEnv[key];
    Object.assign(this.childEnv, env);
  }
}

/** Defaults ← global file ← (trusted only) the folder's `.pith/settings.json`, then the mode's adjustments. */
export function settingsFor(ctx: Pick<LayerContext, "source" | "pithHome" | "log">, cwd: string, trusted: boolean): Settings {
  const project = trusted ? readSettingsLayer("project", settingsPaths(ctx.pithHome, cwd).projectPath, ctx.log) : undefined;
  return ctx.source.finish(mergeSettingsLayers([ctx.source.global, project]));
}
