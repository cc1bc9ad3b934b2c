// The door to the MCP SDK: open-client.ts (and through it the SDK) is imported on first use,
// so a run without MCP servers never loads it (guarded by src/tools/startup-bundle.test.ts).
import type { OpenClient, OpenOptions } from "./open-client.js";

type OpenClientFn = (o: OpenOptions) => Promise<OpenClient>;

let loading: Promise<OpenClientFn> | undefined;

function load(): Promise<OpenClientFn> {
  loading ??= import("./open-client.js").then(
    (m) => m.openClient,
    (err: unknown) => {
      loading = undefined; // a failed import is tried again next time
      throw err;
    },
  );
  return loading;
}

/** Opens a connection, loading the SDK the first time. */
export async function openWithSdk(o: OpenOptions): Promise<OpenClient> {
  return (await load())(o);
}
