// The component classes of pi's TUI package as a headless agent offers them: an extension can
// build, fill and render them (to plain lines) without a terminal. Nothing is ever drawn: pith
// has no screen, so a component only matters to extension code that renders it itself.
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "./tui-text.js";

export interface Component {
  render(width: number): string[];
  invalidate(): void;
  handleInput?(data: string): void;
}

type Style = ((text: string) => string) | undefined;

function padLines(lines: string[], paddingX: number, paddingY: number, bg: Style): string[] {
  const side = " ".repeat(Math.max(0, paddingX));
  const body = lines.map((l) => side + l + side);
  const blank = Array.from({ length: Math.max(0, paddingY) }, () => "");
  return [...blank, ...body, ...blank].map((l) => (bg ? bg(l) : l));
}

export class Container implements Component {
  children: Component[] = [];
  addChild(child: Component): void {
    this.children.push(child);
  }
  removeChild(child: Component): void {
    this.children = this.children.filter((c) => c !== child);
  }
  clear(): void {
    this.children = [];
  }
  invalidate(): void {
    for (const c of this.children) c.invalidate();
  }
  render(width: number): string[] {
    return this.children.flatMap((c) => c.render(width));
  }
}

export class Box extends Container {
  constructor(
    private paddingX = 1,
    private paddingY = 1,
    private bg?: Style,
  ) {
    super();
  }
  setBgFn(bg: Style): void {
    this.bg = bg;
  }
  override render(width: number): string[] {
    return padLines(super.render(Math.max(1, width - 2 * this.paddingX)), this.paddingX, this.paddingY, this.bg);
  }
}

export class Text implements Component {
  constructor(
    private text = "",
    private paddingX = 1,
    private paddingY = 1,
    private bg?: Style,
  ) {}
  setText(text: string): void {
    this.text = text;
  }
  setCustomBgFn(bg: Style): void {
    this.bg = bg;
  }
  invalidate(): void {}
  render(width: number): string[] {
    if (this.text === "") return [];
    return padLines(wrapTextWithAnsi(this.text, Math.max(1, width - 2 * this.paddingX)), this.paddingX, this.paddingY, this.bg);
  }
}

export class TruncatedText implements Component {
  constructor(
    private text = "",
    private paddingX = 0,
    private paddingY = 0,
  ) {}
  invalidate(): void {}
  render(width: number): string[] {
    return padLines([truncateToWidth(this.text.split("\n")[0] ?? "", Math.max(1, width - 2 * this.paddingX))], this.paddingX, this.paddingY, undefined);
  }
}

export class Spacer implements Component {
  constructor(private lines = 1) {}
  setLines(lines: number): void {
    this.lines = lines;
  }
  invalidate(): void {}
  render(): string[] {
    return Array.from({ length: Math.max(0, this.lines) }, () => "");
  }
}

/** Markdown shown as its source text, wrapped (there is no terminal to style it for). */
export class Markdown extends Text {
  constructor(text = "", paddingX = 1, paddingY = 1, _theme?: unknown) {
    super(text, paddingX, paddingY);
  }
}

/** A one-line text field driven by `handleInput` (printable characters, backspace, enter). */
export class Input implements Component {
  private value = "";
  onSubmit?: (value: string) => void;
  onEscape?: () => void;
  focused = false;
  getValue(): string {
    return this.value;
  }
  setValue(value: string): void {
    this.value = value;
  }
  handleInput(data: string): void {
    if (data === "\r" || data === "\n") this.onSubmit?.(this.value);
    else if (data === "\x1b") this.onEscape?.();
    else if (data === "\x7f" || data === "\b") this.value = this.value.slice(0, -1);
    else if (!data.startsWith("\x1b")) this.value += data;
  }
  invalidate(): void {}
  render(width: number): string[] {
    return [truncateToWidth("> " + this.value, Math.max(1, width))];
  }
}

export interface SelectItem {
  value: string;
  label: string;
  description?: string;
}

/** A list with a selected row, moved with the arrow keys; enter selects, escape cancels. */
export class SelectList implements Component {
  private selected = 0;
  private filtered: SelectItem[];
  onSelect?: (item: SelectItem) => void;
  onCancel?: () => void;
  onSelectionChange?: (item: SelectItem) => void;
  constructor(
    private readonly items: SelectItem[],
    private readonly maxVisible = 10,
  ) {
    this.filtered = items;
  }
  setFilter(filter: string): void {
    const q = filter.toLowerCase();
    this.filtered = this.items.filter((i) => i.label.toLowerCase().includes(q) || i.value.toLowerCase().includes(q));
    this.selected = 0;
  }
  setSelectedIndex(index: number): void {
    this.selected = Math.max(0, Math.min(index, this.filtered.length - 1));
  }
  getSelectedItem(): SelectItem | null {
    return this.filtered[this.selected] ?? null;
  }
  handleInput(data: string): void {
    if (data === "\x1b[A") this.setSelectedIndex(this.selected - 1);
    else if (data === "\x1b[B") this.setSelectedIndex(this.selected + 1);
    else if (data === "\r" || data === "\n") {
      const item = this.getSelectedItem();
      if (item) this.onSelect?.(item);
      return;
    } else if (data === "\x1b") return this.onCancel?.();
    const item = this.getSelectedItem();
    if (item) this.onSelectionChange?.(item);
  }
  invalidate(): void {}
  render(width: number): string[] {
    return this.filtered.slice(0, this.maxVisible).map((item, i) => truncateToWidth(`${i === this.selected ? "→ " : "  "}${item.label}`, Math.max(1, width)));
  }
}

/** An image has no place without a terminal: it renders as its alternative text. */
export class Image implements Component {
  constructor(
    _data: string,
    _mimeType: string,
    _theme?: unknown,
    private readonly options: { filename?: string } = {},
  ) {}
  invalidate(): void {}
  render(width: number): string[] {
    return [truncateToWidth(`[image${this.options.filename ? `: ${this.options.filename}` : ""}]`, Math.max(1, width))];
  }
}

/** A spinner row: its message, no animation. */
export class Loader extends Text {
  constructor(_tui?: unknown, _spinner?: unknown, _message?: unknown, message = "Loading...") {
    super(typeof _message === "string" ? _message : message, 1, 0);
  }
  setMessage(message: string): void {
    this.setText(message);
  }
  start(): void {}
  stop(): void {}
}

/** A loader the user may cancel: `signal` aborts when `cancel()` is called. */
export class CancellableLoader extends Loader {
  private readonly controller = new AbortController();
  onAbort?: () => void;
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }
  cancel(): void {
    this.controller.abort();
    this.onAbort?.();
  }
  dispose(): void {}
}

export { visibleWidth };
