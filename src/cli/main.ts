// Entry point placeholder: replaced by the composition root.
process.stdout.write(JSON.stringify({ type: "ready", version: "0.1.0" }) + "\n");
