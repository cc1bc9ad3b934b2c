// `ctx.ui` as pi extensions know it: the ExtensionUi port plus the TUI-only members, which are
// harmless no-ops here: nothing is drawn.
import { headlessTheme, type HeadlessTheme } from "./theme.js";
import type { DialogOptions, EditorOptions, ExtensionUi, NotifyType, WidgetOptions } from "./ui.js";

export const THEME_UNSUPPORTED = "Theme switching not supported in RPC mode";

export interface ExtensionUiContext extends ExtensionUi {
  /** Component factories are ignored; only string arrays (or undefined) reach the port. */
  setWidget(key: string, content?: string[] | ((...args: any[]) => unknown), opts?: WidgetOptions): void;
  pasteToEditor(text: string): void;
  setWorkingMessage(message?: string): void;
  setFooter(factory: unknown): void;
  setHeader(factory: unknown): void;
  setEditorComponent(factory: unknown): void;
  setToolsExpanded(expanded: boolean): void;
  getToolsExpanded(): boolean;
  setWorkingVisible(visible: boolean): void;
  setWorkingIndicator(options?: { frames?: string[]; intervalMs?: number }): void;
  setHiddenThinkingLabel(label?: string): void;
  addAutocompleteProvider(factory: unknown): void;
  getEditorComponent(): undefined;
  onTerminalInput(handler: unknown): () => void;
  /** Custom TUI components cannot be shown: resolves undefined. */
  custom<T>(factory: unknown, options?: unknown): Promise<T | undefined>;
  /** A theme that does not style: `theme.fg("accent", s)` returns `s`. */
  readonly theme: HeadlessTheme;
  getAllThemes(): { name: string; path: string | undefined }[];
  getTheme(name: string): undefined;
  setTheme(theme: unknown): { success: boolean; error?: string };
}

export function createUiContext(port: ExtensionUi): ExtensionUiContext {
  // Only remembered: no tool output is drawn, but an extension reads back what it set.
  let toolsExpanded = false;
  return {
    select: (title: string, options: string[], opts?: DialogOptions) => port.select(title, options, opts),
    confirm: (title: string, message: string, opts?: DialogOptions) => port.confirm(title, message, opts),
    input: (title: string, placeholder?: string, opts?: DialogOptions) => port.input(title, placeholder, opts),
    editor: (title: string, prefill?: string, opts?: EditorOptions) => port.editor(title, prefill, opts),
    notify: (message: string, type?: NotifyType) => port.notify(message, type),
    setStatus: (key: string, text?: string) => port.setStatus(key, text),
    setWidget: (key, content, opts) => {
      if (content === undefined || (Array.isArray(content) && content.every((l) => typeof l === "string"))) {
        port.setWidget(key, content, opts);
      }
    },
    setTitle: (title: string) => port.setTitle(title),
    setEditorText: (text: string) => port.setEditorText(text),
    pasteToEditor: (text: string) => port.setEditorText(text),
    getEditorText: () => port.getEditorText(),
    setWorkingMessage: () => {},
    setFooter: () => {},
    setHeader: () => {},
    setEditorComponent: () => {},
    setToolsExpanded: (expanded: boolean) => {
      toolsExpanded = expanded === true;
    },
    getToolsExpanded: () => toolsExpanded,
    setWorkingVisible: () => {},
    setWorkingIndicator: () => {},
    setHiddenThinkingLabel: () => {},
    addAutocompleteProvider: () => {},
    getEditorComponent: () => undefined,
    onTerminalInput: () => () => {},
    custom: () => Promise.resolve(undefined),
    theme: headlessTheme,
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: THEME_UNSUPPORTED }),
  };
}
