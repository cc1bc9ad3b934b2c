// The sandbox settings (`--sandbox`, `sandbox.network`, `sandbox.writableRoots`) and their check.

/** `off` (the default): no sandbox. `workspace-write`: only the cwd, the writable roots and a private /tmp are writable. `read-only`: nothing is. */
export type SandboxMode = "off" | "workspace-write" | "read-only";

export const SANDBOX_MODES: readonly SandboxMode[] = ["off", "workspace-write", "read-only"];

export interface SandboxSettings {
  mode: SandboxMode;
  /** Network access from sandboxed commands. Default false. */
  network?: boolean;
  /** Absolute folders writable besides the cwd (workspace-write only). */
  writableRoots?: readonly string[];
}

/** What `get_state` shows: `{mode, network, writableRoots}` (`mode: "off"` when off). */
export interface SandboxState {
  mode: SandboxMode;
  network: boolean;
  writableRoots: string[];
}

export function sandboxState(settings: SandboxSettings | undefined): SandboxState {
  if (!settings || settings.mode === "off") return { mode: "off", network: false, writableRoots: [] };
  return { mode: settings.mode, network: settings.network === true, writableRoots: [...(settings.writableRoots ?? [])] };
}

export function isSandboxMode(value: unknown): value is SandboxMode {
  return typeof value === "string" && (SANDBOX_MODES as readonly string[]).includes(value);
}

/** One message per problem (`sandbox.writableRoots[1]: ...`); empty when valid. Existence is checked by prepareSandbox. */
export function validateSandboxSettings(value: unknown, where = "sandbox"): string[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${where}: expected an object {mode, network, writableRoots}`];
  const v = value as Record<string, unknown>;
  const errors: string[] = [];
  if (v.mode !== undefined && !isSandboxMode(v.mode)) errors.push(`${where}.mode: expected one of ${SANDBOX_MODES.join(", ")}`);
  if (v.network !== undefined && typeof v.network !== "boolean") errors.push(`${where}.network: expected true or false`);
  if (v.writableRoots !== undefined) {
    if (!Array.isArray(v.writableRoots)) errors.push(`${where}.writableRoots: expected an array of absolute paths`);
    else
      v.writableRoots.forEach((root, i) => {
        if (typeof root !== "string" || !root.startsWith("/")) errors.push(`${where}.writableRoots[${i}]: expected an absolute path`);
      });
  }
  return errors;
}
