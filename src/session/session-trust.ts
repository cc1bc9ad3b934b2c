// The session's project trust: whether its folder's project layer (settings, extensions, agents,
// rules, prompts, MCP servers) is loaded, what the folder holds, and the host's run-time grant.
// The composition root decides and knows how to load a project layer; the session reaches it
// only through this port, and refuses a grant while a run is in flight.
import { PithError } from "../shared/errors.js";
import type { ProjectTrustReport, ProjectTrustStateWire } from "../shared/schema/index.js";

/** What the composition root offers a session about its folder's trust. */
export interface ProjectTrustPort {
  /** Trusted or not, and who decided. */
  state(): ProjectTrustStateWire;
  /** The folder, the decision, and what the folder holds that trust loads (or loaded). */
  report(): Promise<ProjectTrustReport>;
  /** Trusts the folder now and loads its project layer into the session; `persist` saves the decision. */
  grant(options: { persist: boolean }): Promise<ProjectTrustReport>;
}

export class SessionTrust {
  constructor(
    private readonly port: ProjectTrustPort | undefined,
    private readonly cwd: string,
    private readonly isBusy: () => boolean,
  ) {}

  /** `get_state.projectTrust`. A session built without a port (an embedder's) is untrusted. */
  state(): ProjectTrustStateWire {
    return this.port?.state() ?? { trusted: false, source: "default" };
  }

  get trusted(): boolean {
    return this.state().trusted;
  }

  /** `get_project_trust`. */
  report(): Promise<ProjectTrustReport> {
    return this.port?.report() ?? Promise.resolve({ folder: this.cwd, ...this.state(), found: [] });
  }

  /** `trust_project`: only while idle (settings, tools and extensions change under the session). */
  async grant(options: { persist: boolean }): Promise<ProjectTrustReport> {
    if (!this.port) throw new PithError("unavailable", "This session cannot load a project layer");
    if (this.isBusy()) throw new PithError("busy", "trust_project: the session is busy; send it once the run has ended (or abort the run first)");
    return this.port.grant(options);
  }
}
