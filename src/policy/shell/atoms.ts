// Text shapes the bash rules compare: a sequence of atoms, each one fixed character, any one
// character, or any run of characters (empty included). A rule (`rm -rf:*`, `git * main`) and a
// command pith reads only in part (`$CMD -rf /`, `/usr/bin/r? x`) are both shapes; "could this
// command match this rule" is whether some text fits both. The answer walks the pairs of
// positions once (a product of two small automata), so it takes time proportional to the
// product of the two lengths, never more: no pattern can hold the process.

/** One atom: a fixed character (`c`), any one character (`{}`), or any run of characters (`star`). */
export interface Atom {
  c?: string;
  star?: boolean;
}

export type Shape = readonly Atom[];

export const STAR: Atom = Object.freeze({ star: true });
export const ANY_CHAR: Atom = Object.freeze({});

/** The shape of fixed text. */
export function literalShape(text: string): Atom[] {
  return Array.from(text, (c) => ({ c }));
}

/** True when the shape is fixed text (no wildcard atom). */
export function isLiteralShape(shape: Shape): boolean {
  return shape.every((a) => a.c !== undefined);
}

/** The fixed text of a literal shape. */
export function shapeText(shape: Shape): string {
  return shape.map((a) => a.c ?? (a.star ? "*" : "?")).join("");
}

/** True when the shape can stand for the empty text. */
export function nullable(shape: Shape): boolean {
  return shape.every((a) => a.star === true);
}

function fits(a: Atom, b: Atom): boolean {
  return a.c === undefined || b.c === undefined || a.c === b.c;
}

/** Whether some text fits both shapes. */
export function shapesMeet(a: Shape, b: Shape): boolean {
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width);
  const stack: number[] = [0];
  seen[0] = 1;
  const push = (i: number, j: number) => {
    const k = i * width + j;
    if (seen[k] === 0) {
      seen[k] = 1;
      stack.push(k);
    }
  };
  while (stack.length > 0) {
    const k = stack.pop() as number;
    const i = Math.floor(k / width);
    const j = k % width;
    if (i === a.length && j === b.length) return true;
    const x = a[i];
    const y = b[j];
    if (x?.star) push(i + 1, j);
    if (y?.star) push(i, j + 1);
    if (x && y && fits(x, y)) push(x.star ? i : i + 1, y.star ? j : j + 1);
  }
  return false;
}
