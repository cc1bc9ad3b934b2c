// Skills and prompt templates a package declares, loaded as pi loads them. A skill is a folder
// holding SKILL.md (found recursively) or a Markdown file; its front matter names and describes it,
// and a skill without a description is not loaded. A prompt template is a Markdown file (a folder
// contributes its direct `.md` children); its file name is the command name.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { parseFrontmatter } from "./frontmatter.js";
import { isDirectory, type PackageResources } from "./package-manifest.js";
import type { ExtensionErrorListener } from "./types.js";

export interface SkillInfo {
  name: string;
  description: string;
  /** The SKILL.md (or Markdown) file. */
  filePath: string;
  /** The folder its relative references resolve against. */
  baseDir: string;
  /** `disable-model-invocation`: only its `/skill:name` command loads it. */
  disableModelInvocation: boolean;
}

export interface PromptTemplate {
  name: string;
  description: string;
  argumentHint?: string;
  /** The template text (after the front matter). */
  content: string;
  filePath: string;
}

export interface LoadedResources {
  skills: SkillInfo[];
  prompts: PromptTemplate[];
}

const MAX_DEPTH = 6;

function skillFiles(root: string, depth = 0): string[] {
  if (!isDirectory(root)) return root.endsWith(".md") && existsSync(root) ? [root] : [];
  if (existsSync(join(root, "SKILL.md"))) return [join(root, "SKILL.md")];
  if (depth >= MAX_DEPTH) return [];
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const full = join(root, name);
    if (isDirectory(full)) out.push(...skillFiles(full, depth + 1));
    else if (depth === 0 && name.endsWith(".md")) out.push(full);
  }
  return out;
}

function readSkill(file: string): SkillInfo | string {
  const { frontmatter } = parseFrontmatter<Record<string, unknown>>(readFileSync(file, "utf8"));
  const isSkillMd = basename(file) === "SKILL.md";
  const name = typeof frontmatter.name === "string" && frontmatter.name.trim() ? frontmatter.name.trim() : isSkillMd ? basename(dirname(file)) : basename(file, ".md");
  const description = typeof frontmatter.description === "string" ? frontmatter.description.trim() : "";
  if (!description) return `Skill ${file} has no description; not loaded`;
  return { name, description, filePath: file, baseDir: dirname(file), disableModelInvocation: frontmatter["disable-model-invocation"] === true };
}

function promptFiles(path: string): string[] {
  if (!isDirectory(path)) return path.endsWith(".md") && existsSync(path) ? [path] : [];
  return readdirSync(path)
    .sort()
    .filter((n) => n.endsWith(".md") && !n.startsWith("."))
    .map((n) => join(path, n));
}

function readPrompt(file: string): PromptTemplate {
  const { frontmatter, body } = parseFrontmatter<Record<string, unknown>>(readFileSync(file, "utf8"));
  const firstLine = body.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  const template: PromptTemplate = {
    name: basename(file, ".md"),
    description: typeof frontmatter.description === "string" ? frontmatter.description : firstLine.slice(0, 120),
    content: body,
    filePath: file,
  };
  if (typeof frontmatter["argument-hint"] === "string") template.argumentHint = frontmatter["argument-hint"];
  return template;
}

/** Reads every skill and template of `found`; a bad file is reported and skipped, a name loads once. */
export async function loadPackageResources(found: Pick<PackageResources, "skills" | "prompts">, onError: ExtensionErrorListener): Promise<LoadedResources> {
  const out: LoadedResources = { skills: [], prompts: [] };
  const report = (path: string, error: string) => onError({ extensionPath: path, event: "load", error });
  for (const file of found.skills.flatMap((p) => skillFiles(p))) {
    try {
      const skill = readSkill(file);
      if (typeof skill === "string") report(file, skill);
      else if (out.skills.some((s) => s.name === skill.name)) report(file, `Skill name "${skill.name}" is already loaded; skipped`);
      else out.skills.push(skill);
    } catch (err) {
      report(file, `Failed to load skill: ${errorMessage(err)}`);
    }
  }
  for (const file of found.prompts.flatMap((p) => promptFiles(p))) {
    try {
      const prompt = readPrompt(file);
      if (!out.prompts.some((p) => p.name === prompt.name)) out.prompts.push(prompt);
    } catch (err) {
      report(file, `Failed to load prompt template: ${errorMessage(err)}`);
    }
  }
  return out;
}
