// JSON read exactly: a number keeps its JSON type (an integer is never equal to a float: `1` is not `1.0`)
// and an integer outside JavaScript's safe range keeps every digit (as a bigint). The vector runner reads
// the expected observations and the engine's answers (as `JSON.stringify` writes them on the wire) with it.

/** A JSON number written with a fraction or an exponent (`1.0`, `2e3`): a float. */
export class JsonFloat {
  constructor(readonly value: number, readonly text: string) {}
}

/** A JSON value read exactly: integers as `number` (safe) or `bigint`, floats as `JsonFloat`. */
export type Exact = null | boolean | string | number | bigint | JsonFloat | Exact[] | ExactObject;

/** A JSON object read exactly. */
export interface ExactObject {
  [key: string]: Exact;
}

const TOKEN =
  /[ \t\n\r]*(?:("(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")|(-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)|(true|false|null)|([{}[\]:,]))/y;

/** One token of JSON text. */
interface Token {
  kind: "string" | "number" | "literal" | "punct";
  text: string;
  float: boolean;
}

/** Reads tokens from JSON text; its errors name `where` (a file) and the offset. */
class Reader {
  private pos = 0;
  constructor(private readonly text: string, private readonly where: string) {}

  /** The next token; an error at the end of the text or at anything that is not JSON. */
  next(): Token {
    TOKEN.lastIndex = this.pos;
    const m = TOKEN.exec(this.text);
    if (m === null) throw this.error(this.pos >= this.text.trimEnd().length ? "unexpected end" : "not JSON");
    this.pos = TOKEN.lastIndex;
    if (m[1] !== undefined) return { kind: "string", text: m[1], float: false };
    if (m[2] !== undefined) return { kind: "number", text: m[2], float: m[3] !== undefined || m[4] !== undefined };
    if (m[5] !== undefined) return { kind: "literal", text: m[5], float: false };
    return { kind: "punct", text: m[6] ?? "", float: false };
  }

  /** An error unless only whitespace is left. */
  end(): void {
    if (this.text.slice(this.pos).trim() !== "") throw this.error("text after the JSON value");
  }

  /** An error naming the file and the offset. */
  error(message: string): Error {
    return new Error(`${this.where}: ${message} at offset ${this.pos}`);
  }
}

/** `text` read exactly; an error naming `where` when it is not one JSON value. */
export function parseExact(text: string, where: string): Exact {
  const reader = new Reader(text, where);
  const value = readValue(reader, reader.next());
  reader.end();
  return value;
}

/** The value starting at token `t`. */
function readValue(reader: Reader, t: Token): Exact {
  if (t.kind === "string") return JSON.parse(t.text) as string;
  if (t.kind === "number") return numberOf(t);
  if (t.kind === "literal") return t.text === "null" ? null : t.text === "true";
  if (t.text === "[") return readArray(reader);
  if (t.text === "{") return readObject(reader);
  throw reader.error(`unexpected ${t.text}`);
}

/** A number token: a float, a safe integer, or a bigint. */
function numberOf(t: Token): number | bigint | JsonFloat {
  if (t.float) return new JsonFloat(Number(t.text), t.text);
  const n = Number(t.text);
  return Number.isSafeInteger(n) ? n : BigInt(t.text);
}

/** The rest of an array, its `[` read. */
function readArray(reader: Reader): Exact[] {
  const items: Exact[] = [];
  let t = reader.next();
  if (t.kind === "punct" && t.text === "]") return items;
  for (;;) {
    items.push(readValue(reader, t));
    t = reader.next();
    if (t.kind === "punct" && t.text === "]") return items;
    if (t.kind !== "punct" || t.text !== ",") throw reader.error(`expected , or ], got ${t.text}`);
    t = reader.next();
  }
}

/** The rest of an object, its `{` read (a key given twice is an error). */
function readObject(reader: Reader): ExactObject {
  const out: ExactObject = {};
  let t = reader.next();
  if (t.kind === "punct" && t.text === "}") return out;
  for (;;) {
    if (t.kind !== "string") throw reader.error(`expected a key, got ${t.text}`);
    const key = JSON.parse(t.text) as string;
    if (Object.hasOwn(out, key)) throw reader.error(`key ${t.text} given twice`);
    const colon = reader.next();
    if (colon.kind !== "punct" || colon.text !== ":") throw reader.error(`expected :, got ${colon.text}`);
    Object.defineProperty(out, key, { value: readValue(reader, reader.next()), enumerable: true, writable: true });
    t = reader.next();
    if (t.kind === "punct" && t.text === "}") return out;
    if (t.kind !== "punct" || t.text !== ",") throw reader.error(`expected , or }, got ${t.text}`);
    t = reader.next();
  }
}

/** A JSON object (not an array, a float or null). */
export function isObject(value: Exact | undefined): value is ExactObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat);
}

/** Whether two exact values are equal as JSON, with the same JSON type (`true` is not `1`, `1` is not `1.0`). */
export function jsonEqual(a: Exact, b: Exact): boolean {
  if (typeof a === "number" || typeof a === "bigint") {
    return (typeof b === "number" || typeof b === "bigint") && BigInt(a) === BigInt(b);
  }
  if (a instanceof JsonFloat) return b instanceof JsonFloat && a.value === b.value;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as Exact));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as Exact, b[k] as Exact));
  }
  return a === b;
}

/** `value` as JSON text, on one line, every number as it was written. */
export function show(value: Exact | undefined): string {
  if (value === undefined) return "(missing)";
  if (value instanceof JsonFloat) return value.text;
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${show(v)}`).join(", ")}}`;
  return JSON.stringify(value);
}
