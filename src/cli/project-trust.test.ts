// Trust resolution: the command line and PITH_TRUST_PROJECT first, then the closest saved decision
// (trust.json and trustedFolders) for the folder or a parent, then defaultProjectTrust; folders
// compared by canonical real path; trust.json read and written in pi's shape.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { canonicalFolder, decideTrust, resolveProjectTrust, trustOverride, type TrustInputs } from "./project-trust.js";
import { closestDecision, readTrustFile, saveTrustDecision, trustFilePath } from "./trust-store.js";

const base = (over: Partial<TrustInputs> = {}): TrustInputs => ({ folder: "/w/a/b", saved: {}, trustedFolders: [], defaultProjectTrust: "ask", ...over });

describe("decideTrust", () => {
  it("a folder inside a trustedFolders entry is trusted; others fall to defaultProjectTrust", () => {
    expect(decideTrust(base({ trustedFolders: ["/w"] }))).toEqual({ folder: "/w/a/b", trusted: true, source: "trusted_folders" });
    expect(decideTrust(base({ trustedFolders: ["/w/a/b"] })).trusted).toBe(true);
    expect(decideTrust(base({ trustedFolders: ["/w/a/bc", "/x"] }))).toEqual({ folder: "/w/a/b", trusted: false, source: "default" });
    expect(decideTrust(base({ defaultProjectTrust: "always" }))).toEqual({ folder: "/w/a/b", trusted: true, source: "default" });
    expect(decideTrust(base({ defaultProjectTrust: "never" })).trusted).toBe(false);
  });

  it("the closest saved decision applies: a 'no' below a trusted parent, a 'yes' below a refused one", () => {
    const saved = { "/w": true, "/w/a": false, "/w/a/b/c": true };
    expect(decideTrust(base({ saved, folder: "/w/x" }))).toMatchObject({ trusted: true, source: "saved" });
    expect(decideTrust(base({ saved, folder: "/w/a/b" }))).toMatchObject({ trusted: false, source: "saved" });
    expect(decideTrust(base({ saved, folder: "/w/a/b/c/d" }))).toMatchObject({ trusted: true, source: "saved" });
    // null clears an entry (pi's shape): the next parent decides
    expect(decideTrust(base({ saved: { "/w": true, "/w/a": null } })).trusted).toBe(true);
    // trustedFolders count as saved "yes" decisions; the closer one wins either way
    expect(decideTrust(base({ saved: { "/w": false }, trustedFolders: ["/w/a"] }))).toMatchObject({ trusted: true, source: "trusted_folders" });
    expect(decideTrust(base({ saved: { "/w/a": false }, trustedFolders: ["/w"] }))).toMatchObject({ trusted: false, source: "saved" });
    // at the same folder the trust.json entry wins
    expect(decideTrust(base({ saved: { "/w/a/b": false }, trustedFolders: ["/w/a/b"] }))).toMatchObject({ trusted: false, source: "saved" });
  });

  it("the command line and PITH_TRUST_PROJECT win over every saved decision, the flag over the variable", () => {
    const warn: string[] = [];
    const w = (m: string) => warn.push(m);
    expect(decideTrust(base({ saved: { "/w": false }, override: trustOverride(true, undefined, w) }))).toMatchObject({ trusted: true, source: "flag" });
    expect(decideTrust(base({ trustedFolders: ["/w"], override: trustOverride(false, "1", w) }))).toMatchObject({ trusted: false, source: "flag" });
    expect(decideTrust(base({ trustedFolders: ["/w"], override: trustOverride(undefined, "off", w) }))).toMatchObject({ trusted: false, source: "env" });
    expect(decideTrust(base({ override: trustOverride(undefined, " YES ", w) }))).toMatchObject({ trusted: true, source: "env" });
    expect(warn).toEqual([]);
    expect(trustOverride(undefined, "maybe", w)).toBeUndefined();
    expect(warn).toEqual([expect.stringContaining('PITH_TRUST_PROJECT="maybe" ignored')]);
  });

  it("--trust-project, --approve / -a and --no-approve / -na set one decision; the last flag wins", () => {
    expect(parseArgs([]).trustProject).toBeUndefined();
    expect(parseArgs(["--trust-project"]).trustProject).toBe(true);
    expect(parseArgs(["-a"]).trustProject).toBe(true);
    expect(parseArgs(["--approve"]).trustProject).toBe(true);
    expect(parseArgs(["-na"]).trustProject).toBe(false);
    expect(parseArgs(["--trust-project", "--no-approve"]).trustProject).toBe(false);
    expect(parseArgs(["-na", "-a"]).trustProject).toBe(true);
  });
});

describe("resolveProjectTrust (files and symlinks)", () => {
  function world() {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "pith-trust-")));
    const home = path.join(root, "home");
    const real = path.join(root, "work", "repo");
    const other = path.join(root, "elsewhere");
    mkdirSync(home, { recursive: true });
    mkdirSync(real, { recursive: true });
    mkdirSync(other, { recursive: true });
    const link = path.join(root, "link-to-repo");
    symlinkSync(real, link);
    // a symlink inside the trusted tree that points out of it
    symlinkSync(other, path.join(real, "escape"));
    return { root, home, real, other, link };
  }
  const opts = (w: ReturnType<typeof world>, cwd: string, over: Partial<Parameters<typeof resolveProjectTrust>[0]> = {}) => ({
    cwd,
    pithHome: w.home,
    flag: undefined,
    envValue: undefined,
    trustedFolders: [] as string[],
    defaultProjectTrust: "ask" as const,
    warn: () => undefined,
    ...over,
  });

  it("compares canonical real paths: a symlink to a trusted folder is trusted, a symlink out of it is judged by its target", () => {
    const w = world();
    const byReal = opts(w, w.link, { trustedFolders: [w.real] });
    expect(resolveProjectTrust(byReal)).toEqual({ folder: w.real, trusted: true, source: "trusted_folders" });
    // the list may name the symlink: it is resolved too
    expect(resolveProjectTrust(opts(w, w.real, { trustedFolders: [w.link] })).trusted).toBe(true);
    expect(resolveProjectTrust(opts(w, path.join(w.real, "escape"), { trustedFolders: [w.real] }))).toEqual({ folder: w.other, trusted: false, source: "default" });
    expect(canonicalFolder(path.join(w.link, "..", "work", "repo"))).toBe(w.real);
  });

  it("reads trust.json (pi's shape: folder → true/false/null); a damaged file counts as no decision, with a warning", async () => {
    const w = world();
    writeFileSync(trustFilePath(w.home), JSON.stringify({ [w.real]: true, [w.other]: null }));
    expect(resolveProjectTrust(opts(w, w.link))).toEqual({ folder: w.real, trusted: true, source: "saved" });
    writeFileSync(trustFilePath(w.home), '{"/x": "yes"}');
    const warn: string[] = [];
    expect(resolveProjectTrust(opts(w, w.real, { warn: (m) => warn.push(m) }))).toMatchObject({ trusted: false, source: "default" });
    expect(warn).toEqual([expect.stringMatching(/saved trust decisions not used: .*must be true, false or null/)]);
    expect(() => readTrustFile(trustFilePath(w.home))).toThrow(/trust\.json/);
    writeFileSync(trustFilePath(w.home), "[1]");
    expect(() => readTrustFile(trustFilePath(w.home))).toThrow(/expected an object/);
  });
});

describe("saveTrustDecision", () => {
  it("keeps every other entry, writes keys sorted, and loses none when saves overlap", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "pith-trust-save-"));
    const file = trustFilePath(home);
    writeFileSync(file, JSON.stringify({ "/z": false, "/a": null }));
    await Promise.all(Array.from({ length: 12 }, (_, i) => saveTrustDecision(file, `/p/${String(i).padStart(2, "0")}`, i % 2 === 0)));
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, boolean | null>;
    expect(Object.keys(saved)).toEqual(["/a", ...Array.from({ length: 12 }, (_, i) => `/p/${String(i).padStart(2, "0")}`), "/z"]);
    expect(saved["/p/00"]).toBe(true);
    expect(saved["/p/01"]).toBe(false);
    expect(closestDecision(readTrustFile(file), "/p/00/deep")).toEqual({ path: "/p/00", decision: true });
  });

  it("refuses to overwrite a damaged file (it names it) and takes over a lock left by a dead process", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "pith-trust-save-"));
    const file = trustFilePath(home);
    writeFileSync(file, "{not json");
    await expect(saveTrustDecision(file, "/p", true)).rejects.toThrow(/Invalid JSON in .*trust\.json/);
    expect(readFileSync(file, "utf8")).toBe("{not json");
    writeFileSync(file, "{}");
    writeFileSync(`${file}.lock`, "999999999\n");
    await saveTrustDecision(file, "/p", true);
    expect(readTrustFile(file)).toEqual({ "/p": true });
  });
});
