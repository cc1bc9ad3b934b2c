// A small tree for the grep/find tests: ignore files at two levels, hidden files, a binary.
import { writeTree } from "./tools.js";

export function writeSearchFixture(root: string): void {
  writeTree(root, {
    ".gitignore": "build/\n*.log\n",
    ".hidden.ts": "export const hidden = 'needle';\n",
    "README.md": "# Title\nA needle in the readme.\n",
    "src/a.ts": "import x from './b';\n// needle one\nconst y = 1;\nconst z = 2;\n// NEEDLE two\n",
    "src/b.ts": "export default 1; // needle\n",
    "src/a-b.ts": "needle dash\n",
    "src/nested/.gitignore": "secret.ts\n",
    "src/nested/secret.ts": "needle secret\n",
    "src/nested/ok.ts": "needle ok\n",
    "build/out.js": "needle built\n",
    "debug.log": "needle log\n",
    "bin.dat": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
    "regex.txt": "a.b\naxb\n",
  });
}
