/**
 * A caller's regular expression (the Tavily shape's `select_paths`, `exclude_paths`,
 * `select_domains`, `exclude_domains`), matched without backtracking. JavaScript's RegExp
 * backtracks: a pattern like `(a+)+$` takes exponential time on a short path, on the event
 * loop. Here the pattern is compiled to a Thompson NFA and every state is stepped at once
 * over the text, so a test takes at most (text length) × (NFA states) steps, whatever the
 * pattern: a path of 2048 characters against the largest pattern allowed (MAX_STATES) is a
 * bounded, small amount of work, the same order as Scout's path globs.
 *
 * The syntax is the part of Python's `re` (what Tavily runs) that such an automaton can
 * honour exactly: literals and escaped punctuation, `.`, classes (`[a-z0-9_-]`, `[^/]`),
 * `\d \w \s` and their negations, groups (`(…)`, `(?:…)`, `(?P<name>…)`, `(?<name>…)`),
 * `|`, the quantifiers `* + ? {n} {n,} {n,m}` (lazy `*?` and the like match the same
 * strings), and the assertions `^ $ \A \Z \b \B`. What needs backtracking (backreferences,
 * lookaround) or changes the meaning of the rest (inline flags, possessive quantifiers) is
 * refused with RegexRefused, whose message says why. Matching is a search, as Python's
 * `re.search` and RegExp.test: the pattern may match anywhere in the text unless `^`/`$` pin it.
 */

export class RegexRefused extends Error {}

/** NFA states of one pattern at most: bounds both memory and the work of one test. */
export const MAX_STATES = 500;

type CharTest = (c: number) => boolean;
type Assertion = 'start' | 'end' | 'boundary' | 'not-boundary';

type Node =
  | { t: 'char'; test: CharTest }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number }
  | { t: 'assert'; kind: Assertion };

type State =
  | { k: 'char'; test: CharTest; out: number }
  | { k: 'split'; out: number; out2: number }
  | { k: 'assert'; kind: Assertion; out: number }
  | { k: 'match' };

const code = (s: string): number => s.charCodeAt(0);
const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) => c === 32 || (c >= 9 && c <= 13);
const not =
  (f: CharTest): CharTest =>
  (c) =>
    !f(c);
const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const CONTROL_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };

class Parser {
  i = 0;
  constructor(readonly src: string) {}

  refuse(why: string): never {
    throw new RegexRefused(why);
  }

  parse(): Node {
    const node = this.alt();
    if (this.i < this.src.length) this.refuse(`unbalanced parenthesis at position ${this.i}`);
    return node;
  }

  alt(): Node {
    const options = [this.cat()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.cat());
    }
    return options.length === 1 ? (options[0] as Node) : { t: 'alt', options };
  }

  cat(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.repeat());
    return { t: 'cat', items };
  }

  /** `{n}`, `{n,}`, `{n,m}` at the cursor, or undefined (then `{` is a literal, as in Python). */
  counted(): { min: number; max: number } | undefined {
    const m = /^\{([0-9]{0,4})(,([0-9]{0,4}))?\}/.exec(this.src.slice(this.i));
    if (m === null || (m[1] === '' && m[2] === undefined)) return undefined;
    this.i += m[0].length;
    const min = m[1] === '' ? 0 : Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
    if (max < min) this.refuse(`the repetition {${min},${max}} has its bounds reversed`);
    return { min, max };
  }

  repeat(): Node {
    const atom = this.atom();
    const c = this.src[this.i];
    let bounds: { min: number; max: number } | undefined;
    if (c === '*') bounds = { min: 0, max: Number.POSITIVE_INFINITY };
    else if (c === '+') bounds = { min: 1, max: Number.POSITIVE_INFINITY };
    else if (c === '?') bounds = { min: 0, max: 1 };
    if (bounds !== undefined) this.i++;
    else if (c === '{') bounds = this.counted();
    if (bounds === undefined) return atom ?? { t: 'cat', items: [] };
    if (atom === undefined || atom.t === 'assert') this.refuse(`nothing to repeat at position ${this.i - 1}`);
    // Lazy (`*?`) matches the same strings as greedy: only which match is reported differs.
    if (this.src[this.i] === '?') this.i++;
    else if (this.src[this.i] === '+') this.refuse('possessive quantifiers (*+, ++, ?+) are not served');
    // A quantifier straight after another (`a**`) is an error in Python.
    const after = this.src[this.i];
    if (after === '*' || after === '+' || after === '?' || (after === '{' && this.counted() !== undefined))
      this.refuse(`multiple repeat at position ${this.i}`);
    return { t: 'rep', node: atom, min: bounds.min, max: bounds.max };
  }

  atom(): Node | undefined {
    const c = this.src[this.i];
    if (c === undefined) return undefined;
    if (c === '*' || c === '+' || c === '?') this.refuse(`nothing to repeat at position ${this.i}`);
    this.i++;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        return { t: 'char', test: (x) => x !== 10 };
      case '^':
        return { t: 'assert', kind: 'start' };
      case '$':
        return { t: 'assert', kind: 'end' };
      case '\\':
        return this.escape();
      default: {
        const lit = code(c);
        return { t: 'char', test: (x) => x === lit };
      }
    }
  }

  group(): Node {
    if (this.src[this.i] === '?') {
      const rest = this.src.slice(this.i + 1);
      if (rest.startsWith(':')) this.i += 2;
      else if (/^P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) this.i += 1 + rest.indexOf('>') + 1;
      else if (/^(=|!|<=|<!)/.test(rest))
        this.refuse('lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not served');
      else if (rest.startsWith('P=')) this.refuse('backreferences are not served');
      else this.refuse('inline flags and other (?…) groups are not served; (?:…) and (?P<name>…) are');
    }
    const inner = this.alt();
    if (this.src[this.i] !== ')') this.refuse('missing ), unterminated group');
    this.i++;
    return inner;
  }

  /** The escape after `\` (the backslash already read), outside a class. */
  escape(): Node {
    const c = this.src[this.i];
    if (c === undefined) this.refuse('the pattern ends with a lone backslash');
    this.i++;
    if (c === 'A') return { t: 'assert', kind: 'start' };
    if (c === 'Z' || c === 'z') return { t: 'assert', kind: 'end' };
    if (c === 'b') return { t: 'assert', kind: 'boundary' };
    if (c === 'B') return { t: 'assert', kind: 'not-boundary' };
    const test = this.escapeTest(c);
    return { t: 'char', test };
  }

  /** A character escape, inside or outside a class: a class (`\d`) or one character. */
  escapeTest(c: string): CharTest {
    const cls = CLASS_ESCAPES[c];
    if (cls !== undefined) return cls;
    const lit = this.escapedChar(c);
    return (x) => x === lit;
  }

  escapedChar(c: string): number {
    if (/[1-9]/.test(c) || (c === 'k' && this.src[this.i] === '<')) this.refuse('backreferences are not served');
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (c === 'x' || c === 'u') {
      const len = c === 'x' ? 2 : 4;
      const hex = this.src.slice(this.i, this.i + len);
      if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) this.refuse(`\\${c} needs ${len} hexadecimal digits`);
      this.i += len;
      return Number.parseInt(hex, 16);
    }
    if (/[A-Za-z0-9]/.test(c)) this.refuse(`unknown escape \\${c}`);
    return code(c);
  }

  charClass(): Node {
    const negate = this.src[this.i] === '^';
    if (negate) this.i++;
    const parts: CharTest[] = [];
    let first = true;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) this.refuse('unterminated character set');
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      this.i++;
      let low: number;
      if (c === '\\') {
        const e = this.src[this.i];
        if (e === undefined) this.refuse('unterminated character set');
        this.i++;
        const cls = CLASS_ESCAPES[e];
        if (cls !== undefined) {
          parts.push(cls);
          continue;
        }
        low = e === 'b' ? 8 : this.escapedChar(e);
      } else low = code(c);
      // A range `a-z`, unless the `-` ends the class (then it is a literal).
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== undefined && this.src[this.i + 1] !== ']') {
        this.i++;
        let high: number;
        const h = this.src[this.i] as string;
        this.i++;
        if (h === '\\') {
          const e = this.src[this.i];
          if (e === undefined) this.refuse('unterminated character set');
          this.i++;
          if (CLASS_ESCAPES[e] !== undefined) this.refuse(`bad character range ending in \\${e}`);
          high = this.escapedChar(e);
        } else high = code(h);
        if (high < low) this.refuse(`bad character range ${String.fromCharCode(low)}-${String.fromCharCode(high)}`);
        const lo = low;
        parts.push((x) => x >= lo && x <= high);
        continue;
      }
      const lit = low;
      parts.push((x) => x === lit);
    }
    const any: CharTest = (x) => parts.some((p) => p(x));
    return { t: 'char', test: negate ? not(any) : any };
  }
}

/** Thompson's construction: each node becomes states with one entry and dangling exits. */
class Builder {
  readonly states: State[] = [];

  add(s: State): number {
    if (this.states.length >= MAX_STATES)
      throw new RegexRefused(`too large once its repetitions are expanded (more than ${MAX_STATES} states)`);
    this.states.push(s);
    return this.states.length - 1;
  }

  /** Builds `node` so that it continues to state `next`; returns its entry state. */
  build(node: Node, next: number): number {
    switch (node.t) {
      case 'char':
        return this.add({ k: 'char', test: node.test, out: next });
      case 'assert':
        return this.add({ k: 'assert', kind: node.kind, out: next });
      case 'cat': {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--) entry = this.build(node.items[i] as Node, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.build(node.options[node.options.length - 1] as Node, next);
        for (let i = node.options.length - 2; i >= 0; i--)
          entry = this.add({ k: 'split', out: this.build(node.options[i] as Node, next), out2: entry });
        return entry;
      }
      case 'rep': {
        let entry = next;
        if (node.max === Number.POSITIVE_INFINITY) {
          // x* : a split that loops through x back to itself.
          const loop = this.add({ k: 'split', out: -1, out2: next });
          const body = this.build(node.node, loop);
          (this.states[loop] as { out: number }).out = body;
          entry = loop;
        } else {
          // x{0,k} after the required copies: nested optionals, x(x(x)?)?)?
          for (let i = node.min; i < node.max; i++)
            entry = this.add({ k: 'split', out: this.build(node.node, entry), out2: next });
        }
        for (let i = 0; i < node.min; i++) entry = this.build(node.node, entry);
        return entry;
      }
    }
  }
}

export interface LinearRegex {
  readonly source: string;
  /** The pattern matches somewhere in `text` (a search, as re.search and RegExp.test). */
  test(text: string): boolean;
}

/** Compiles `source`, or throws RegexRefused saying why it is not served. */
export function compileLinearRegex(source: string): LinearRegex {
  const ast = new Parser(source).parse();
  const b = new Builder();
  const match = b.add({ k: 'match' });
  const start = b.build(ast, match);
  const states = b.states;
  const marks = new Int32Array(states.length);
  return {
    source,
    test(text) {
      let generation = 0;
      marks.fill(0);
      let found = false;
      const stack: number[] = [];
      const word = (p: number) => p >= 0 && p < text.length && isWord(text.charCodeAt(p));
      /** Adds `s` and every state reachable from it without reading a character, at position `pos`. */
      const close = (list: number[], s: number, pos: number) => {
        stack.push(s);
        while (stack.length > 0) {
          const id = stack.pop() as number;
          if (marks[id] === generation) continue;
          marks[id] = generation;
          const st = states[id] as State;
          if (st.k === 'match') found = true;
          else if (st.k === 'char') list.push(id);
          else if (st.k === 'split') stack.push(st.out2, st.out);
          else {
            const ok =
              st.kind === 'start'
                ? pos === 0
                : st.kind === 'end'
                  ? pos === text.length
                  : (word(pos - 1) !== word(pos)) === (st.kind === 'boundary');
            if (ok) stack.push(st.out);
          }
        }
      };
      generation = 1;
      let current: number[] = [];
      close(current, start, 0);
      for (let pos = 0; pos < text.length && !found; pos++) {
        const c = text.charCodeAt(pos);
        generation++;
        const next: number[] = [];
        for (const id of current) {
          const st = states[id] as { test: CharTest; out: number };
          if (st.test(c)) close(next, st.out, pos + 1);
        }
        // Unanchored: a match may also begin at the next position.
        close(next, start, pos + 1);
        current = next;
      }
      return found;
    },
  };
}
