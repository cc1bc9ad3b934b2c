// Path arguments of the built-in tools live in shared (the policy layer reads them too).
export { normalisePathArg, resolveSearchPath, resolveToolPath } from "../shared/tool-paths.js";
