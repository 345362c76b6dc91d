// A text of JSON values one after another: what `kubectl get ... -o json >> state.json` leaves after a second
// run, and what `kubectl cluster-info dump` prints (a List per kind and namespace, with each container's logs
// between "==== START logs for ..." and "==== END logs for ..." lines, which are skipped). Each value is parsed as
// JSON.parse parses one; the first that is not JSON is named by its line.
// @see https://kubernetes.io/docs/reference/kubectl/generated/kubectl_cluster-info/kubectl_cluster-info_dump/

import { closingIndex, OPEN_BRACE, OPEN_BRACKET } from "./json-closing";

export interface JsonValue {
  /** From 1, in the order of the text. */
  readonly index: number;
  readonly value: unknown;
}

const START_LOGS = "==== START logs for";
const END_LOGS = "==== END logs for";

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** The line (from 1) of a position in the text. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Where the object or array opening at `start` closes (the index after it), or -1 when the text ends first. */
const closingOf = (text: string, start: number) => closingIndex((i) => text.charCodeAt(i), text.length, start);

/** Every JSON object or array of the text, in order; or the problem with the first that is not one. */
export function jsonValues(text: string): { readonly values: readonly JsonValue[] } | { readonly problem: string; readonly parsed: number } {
  const values: JsonValue[] = [];
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    if (text.startsWith(START_LOGS, i)) {
      const end = text.indexOf(END_LOGS, i);
      if (end === -1) return { parsed: values.length, problem: `line ${lineAt(text, i)}: a container's logs start here ("${START_LOGS} ...") and never end` };
      const next = text.indexOf("\n", end);
      i = next === -1 ? text.length : next + 1;
      continue;
    }
    if (code !== OPEN_BRACE && code !== OPEN_BRACKET) {
      const lineEnd = text.indexOf("\n", i);
      const found = text.slice(i, lineEnd === -1 ? undefined : lineEnd).slice(0, 40);
      return { parsed: values.length, problem: `line ${lineAt(text, i)}: got ${JSON.stringify(found)} where a JSON object should start` };
    }
    // A value whose brackets never balance is broken somewhere in the rest: JSON.parse says where.
    const end = closingOf(text, i);
    try {
      values.push({ index: values.length + 1, value: JSON.parse(text.slice(i, end === -1 ? undefined : end)) });
    } catch (error) {
      // V8 quotes the text around the error, new lines and all: one line of message is enough.
      return { parsed: values.length, problem: `line ${lineAt(text, i)}: not valid JSON: ${(error as Error).message.replace(/\s*\n\s*/g, " ")}` };
    }
    // What follows is the next value, space, logs, or a problem named by the loop: `}{` is two values, as jq reads it.
    i = end === -1 ? text.length : end;
  }
  return { values };
}
