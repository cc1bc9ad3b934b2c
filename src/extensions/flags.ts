// Extension flags on the command line (pi's registerFlag): options pith does not know are kept
// by the CLI and matched here, once the extensions are loaded, against the flags they declared.
import type { LoadedExtension } from "./types.js";

/** An option from the command line that may be an extension's flag. */
export interface CliFlag {
  /** Without the leading `--`. */
  name: string;
  /** `--name=value`, or the next argument. */
  value?: string;
  /** The value is the next argument: a boolean flag does not take it (it is given back). */
  separate?: boolean;
}

export interface FlagResolution {
  /** The value of every declared flag given on the command line. */
  values: Map<string, boolean | string>;
  /** Options no loaded extension declared. */
  unknown: CliFlag[];
  /** Boolean flags followed by an argument that is not theirs (the CLI treats it as a message again). */
  givenBack: CliFlag[];
  /** Declared flags given a value they cannot take. */
  errors: string[];
}

/**
 * Matches command-line options to declared flags (the first extension to declare a name owns
 * it): a boolean flag is true when named (`--name=false` makes it false), a string flag needs a value.
 */
export function resolveCliFlags(extensions: readonly LoadedExtension[], flags: readonly CliFlag[]): FlagResolution {
  const out: FlagResolution = { values: new Map(), unknown: [], givenBack: [], errors: [] };
  for (const flag of flags) {
    const declared = extensions.map((e) => e.flags.get(flag.name)).find((f) => f !== undefined);
    if (!declared) out.unknown.push(flag);
    else if (declared.type === "string") {
      if (flag.value === undefined) out.errors.push(`Extension flag "--${flag.name}" requires a value`);
      else out.values.set(flag.name, flag.value);
    } else if (flag.value === undefined || flag.separate) {
      out.values.set(flag.name, true);
      if (flag.value !== undefined) out.givenBack.push(flag);
    } else if (flag.value === "true" || flag.value === "false") out.values.set(flag.name, flag.value === "true");
    else out.errors.push(`Extension flag "--${flag.name}" is a switch: use --${flag.name} or --${flag.name}=false`);
  }
  return out;
}
