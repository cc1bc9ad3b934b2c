// `ctx.ui.theme` without a terminal: pi's Theme methods with no styling, so an extension that
// colours its text (`theme.fg("accent", s)`) gets `s` back unchanged. Themes a package declares
// are not loaded: a headless agent draws nothing.

export type ColorMode = "truecolor" | "256color";

export class HeadlessTheme {
  readonly name = "headless";
  readonly sourcePath: string | undefined = undefined;
  fg(_color: string, text: string): string {
    return String(text);
  }
  bg(_color: string, text: string): string {
    return String(text);
  }
  bold(text: string): string {
    return String(text);
  }
  italic(text: string): string {
    return String(text);
  }
  underline(text: string): string {
    return String(text);
  }
  inverse(text: string): string {
    return String(text);
  }
  strikethrough(text: string): string {
    return String(text);
  }
  /** No escape sequence: the empty string. */
  getFgAnsi(_color: string): string {
    return "";
  }
  getBgAnsi(_color: string): string {
    return "";
  }
  getColorMode(): ColorMode {
    return "256color";
  }
  getThinkingBorderColor(_level: string): (text: string) => string {
    return (text) => text;
  }
  getBashModeBorderColor(): (text: string) => string {
    return (text) => text;
  }
}

/** One theme for the whole process: it holds no state. */
export const headlessTheme = new HeadlessTheme();

const identity = (text: string) => text;

/** pi's MarkdownTheme with every style left out. */
export function headlessMarkdownTheme(): Record<string, unknown> {
  const keys = ["heading", "link", "linkUrl", "code", "codeBlock", "codeBlockBorder", "quote", "quoteBorder", "hr", "listBullet", "bold", "italic", "strikethrough", "underline"];
  return { ...Object.fromEntries(keys.map((k) => [k, identity])), highlightCode: (code: string) => code.split("\n") };
}
