// Writes schema/rpc.schema.json from the TypeBox definitions in src/protocol (npm run schema).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderRpcJsonSchema } from "../src/protocol/json-schema.js";

const target = fileURLToPath(new URL("../schema/rpc.schema.json", import.meta.url));
writeFileSync(target, renderRpcJsonSchema());
process.stdout.write(`wrote ${target}\n`);
